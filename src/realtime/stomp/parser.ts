// Streaming STOMP frame parser: bytes in (WebSocket or SockJS messages, which may carry part of a
// frame or several frames), frames and heart-beats out. Handles \n and \r\n line ends, the NUL
// terminator, content-length bodies (which may contain NUL), header unescaping per the version
// the session negotiated, and a maximum frame size. A protocol error makes the parser refuse all
// further input: STOMP requires the connection to be closed after the ERROR frame.
import { escapesHeaders, unescapeHeaderValue, type StompFrame, type StompVersion } from './frame.js';
import { PesimError } from '../../errors/pesim-error.js';

const LF = 0x0a;
const CR = 0x0d;
const NUL = 0x00;

/** A frame this server refuses; `explanation` goes into the ERROR frame's body. */
export class StompProtocolError extends PesimError {
  constructor(message: string, readonly explanation?: string) {
    super('STOMP_PROTOCOL', message);
  }
}

export type ParsedItem = { kind: 'frame'; frame: StompFrame } | { kind: 'heartbeat' };

export interface ParserOptions {
  /** Largest frame accepted (command, headers and body) [bytes]. */
  maxFrameBytes: number;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

export class StompParser {
  private buffer: Buffer = Buffer.alloc(0);
  private failed = false;
  /** Negotiated version: decides header unescaping. Undefined until CONNECTED (no escaping). */
  version: StompVersion | undefined;

  constructor(private readonly options: ParserOptions) {}

  /** Bytes received but not yet part of a complete frame. */
  get pending(): number {
    return this.buffer.length;
  }

  /** Adds received bytes; returns the complete frames and heart-beats they finish, in order. Throws StompProtocolError. */
  push(chunk: Buffer | string): ParsedItem[] {
    if (this.failed) throw new StompProtocolError('the connection already had a protocol error');
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    this.buffer = this.buffer.length === 0 ? bytes : Buffer.concat([this.buffer, bytes]);
    const items: ParsedItem[] = [];
    try {
      for (;;) {
        const item = this.next();
        if (!item) break;
        items.push(item);
      }
    } catch (error) {
      this.failed = true;
      this.buffer = Buffer.alloc(0);
      throw error;
    }
    return items;
  }

  /** One heart-beat or frame from the front of the buffer, or undefined when more bytes are needed. */
  private next(): ParsedItem | undefined {
    const buf = this.buffer;
    if (buf.length === 0) return undefined;
    // EOLs between frames are heart-beats (and the optional padding after a NUL).
    if (buf[0] === LF) {
      this.buffer = buf.subarray(1);
      return { kind: 'heartbeat' };
    }
    if (buf[0] === CR) {
      if (buf.length < 2) return undefined;
      if (buf[1] !== LF) throw new StompProtocolError('malformed frame: a carriage return not followed by a line feed before the command');
      this.buffer = buf.subarray(2);
      return { kind: 'heartbeat' };
    }
    const headEnd = findHeadEnd(buf);
    if (!headEnd) {
      if (buf.indexOf(NUL) >= 0) throw new StompProtocolError('malformed frame: NUL before the empty line that ends the headers');
      this.checkSize(buf.length);
      return undefined;
    }
    const lines = splitLines(buf.subarray(0, headEnd.linesEnd));
    const command = lines[0];
    if (!/^[A-Za-z]+$/.test(command)) throw new StompProtocolError('malformed frame: the command line is not a command', `command line: ${JSON.stringify(command.slice(0, 64))}`);
    const headers = this.parseHeaders(command, lines.slice(1));
    const bodyStart = headEnd.bodyStart;
    const lengthHeader = headers.find(([name]) => name === 'content-length')?.[1];
    let bodyEnd: number;
    if (lengthHeader !== undefined) {
      if (!/^\d{1,12}$/.test(lengthHeader.trim())) throw new StompProtocolError('malformed frame: content-length is not a non-negative integer', `content-length: ${lengthHeader}`);
      const length = Number(lengthHeader.trim());
      this.checkSize(bodyStart + length + 1);
      if (buf.length < bodyStart + length + 1) return undefined;
      bodyEnd = bodyStart + length;
      if (buf[bodyEnd] !== NUL) throw new StompProtocolError('malformed frame: the body is longer than its content-length (no NUL after it)');
    } else {
      const nul = buf.indexOf(NUL, bodyStart);
      if (nul < 0) {
        this.checkSize(buf.length);
        return undefined;
      }
      bodyEnd = nul;
    }
    this.checkSize(bodyEnd + 1);
    const body = Buffer.from(buf.subarray(bodyStart, bodyEnd));
    this.buffer = buf.subarray(bodyEnd + 1);
    return { kind: 'frame', frame: { command, headers, body } };
  }

  private parseHeaders(command: string, lines: string[]): [string, string][] {
    const unescape = escapesHeaders(this.version, command);
    return lines.map((line) => {
      const colon = line.indexOf(':');
      if (colon <= 0) throw new StompProtocolError(`malformed frame: header line without a name and colon in ${command}`, `header line: ${JSON.stringify(line.slice(0, 64))}`);
      const rawName = line.slice(0, colon);
      const rawValue = line.slice(colon + 1);
      if (!unescape) return [rawName, rawValue];
      const name = unescapeHeaderValue(rawName, this.version!);
      const value = unescapeHeaderValue(rawValue, this.version!);
      if (name === undefined || value === undefined) {
        throw new StompProtocolError(`malformed frame: undefined escape sequence in a header of ${command} (STOMP ${this.version})`, `header line: ${JSON.stringify(line.slice(0, 64))}`);
      }
      return [name, value];
    });
  }

  private checkSize(bytes: number): void {
    if (bytes > this.options.maxFrameBytes) {
      throw new StompProtocolError(`frame too large: the limit is ${this.options.maxFrameBytes} bytes`, `a frame of at least ${bytes} bytes was received`);
    }
  }
}

/** Where the header block ends: the first empty line (LF LF or LF CR LF). */
function findHeadEnd(buf: Buffer): { linesEnd: number; bodyStart: number } | undefined {
  let from = 0;
  for (;;) {
    const lf = buf.indexOf(LF, from);
    if (lf < 0 || lf + 1 >= buf.length) return undefined;
    if (buf[lf + 1] === LF) return { linesEnd: lf, bodyStart: lf + 2 };
    if (buf[lf + 1] === CR) {
      if (lf + 2 >= buf.length) return undefined;
      if (buf[lf + 2] === LF) return { linesEnd: lf, bodyStart: lf + 3 };
    }
    from = lf + 1;
  }
}

/** Decodes the command and header lines (UTF-8), dropping the CR of CR LF line ends. */
function splitLines(head: Buffer): string[] {
  let text: string;
  try {
    text = utf8.decode(head);
  } catch {
    throw new StompProtocolError('malformed frame: the command or a header is not valid UTF-8');
  }
  if (text.includes('\0')) throw new StompProtocolError('malformed frame: NUL inside the command or headers');
  return text.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}
