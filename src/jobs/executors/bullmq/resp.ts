// The Redis wire protocol (RESP2): commands encoded as arrays of bulk strings, and an incremental
// reply parser. Replies that arrive in many chunks (a result of several MiB) are assembled once,
// when enough bytes are there, rather than re-joined on every chunk.

export type RespValue = string | number | null | Error | Buffer | RespValue[];

export class ReplyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReplyError';
  }
}

export type CommandArgument = string | number | Buffer;

/** One command as RESP: `*<n>\r\n` then `$<len>\r\n<bytes>\r\n` per argument. */
export function encodeCommand(args: readonly CommandArgument[]): Buffer {
  const parts: Buffer[] = [Buffer.from(`*${args.length}\r\n`)];
  for (const arg of args) {
    const bytes = Buffer.isBuffer(arg) ? arg : Buffer.from(String(arg), 'utf8');
    parts.push(Buffer.from(`$${bytes.length}\r\n`), bytes, Buffer.from('\r\n'));
  }
  return Buffer.concat(parts);
}

/** Thrown inside the parser when the buffer ends before the reply; `needed`: bytes known to be required. */
class Incomplete {
  constructor(readonly needed: number) {}
}

export class RespParser {
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** No parse is attempted before this many bytes are buffered. */
  private needed = 0;

  /**
   * Adds received bytes; returns the complete replies they finish, in order. `binary(i)`: whether
   * the i-th reply of this call, if a bulk string, is wanted as bytes rather than text.
   */
  push(chunk: Buffer, binary: (index: number) => boolean = () => false): RespValue[] {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    const replies: RespValue[] = [];
    if (this.buffered < this.needed) return replies;
    let buffer = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.buffered);
    let offset = 0;
    while (offset < buffer.length) {
      try {
        const [value, next] = this.parse(buffer, offset, binary(replies.length));
        replies.push(value);
        offset = next;
      } catch (error) {
        if (!(error instanceof Incomplete)) throw error;
        buffer = buffer.subarray(offset);
        this.chunks = [buffer];
        this.buffered = buffer.length;
        this.needed = Math.max(error.needed - offset, buffer.length + 1);
        return replies;
      }
    }
    this.chunks = [];
    this.buffered = 0;
    this.needed = 0;
    return replies;
  }

  reset(): void {
    this.chunks = [];
    this.buffered = 0;
    this.needed = 0;
  }

  private line(buffer: Buffer, offset: number): [string, number] {
    const end = buffer.indexOf('\r\n', offset, 'latin1');
    if (end < 0) throw new Incomplete(buffer.length + 1);
    return [buffer.toString('utf8', offset, end), end + 2];
  }

  private parse(buffer: Buffer, offset: number, binary = false): [RespValue, number] {
    const type = String.fromCharCode(buffer[offset]);
    const [text, next] = this.line(buffer, offset + 1);
    switch (type) {
      case '+':
        return [text, next];
      case '-':
        return [new ReplyError(text), next];
      case ':':
        return [Number(text), next];
      case '$': {
        const length = Number(text);
        if (length < 0) return [null, next];
        if (next + length + 2 > buffer.length) throw new Incomplete(next + length + 2);
        const value = binary ? Buffer.from(buffer.subarray(next, next + length)) : buffer.toString('utf8', next, next + length);
        return [value, next + length + 2];
      }
      case '*': {
        const count = Number(text);
        if (count < 0) return [null, next];
        const items: RespValue[] = [];
        let position = next;
        for (let i = 0; i < count; i++) {
          if (position >= buffer.length) throw new Incomplete(position + 1);
          const [item, after] = this.parse(buffer, position);
          items.push(item);
          position = after;
        }
        return [items, position];
      }
      default:
        throw new Error(`Redis protocol error: unexpected reply type ${JSON.stringify(type)}`);
    }
  }
}
