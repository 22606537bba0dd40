// Result files fetched from Redis straight into their files. Through ioredis a result of a few
// hundred KiB cost the service ≈ 0.75 ms of CPU (the socket's 64 KiB chunks, their concatenation
// into one Buffer, and the garbage collections all those bytes set off), more than the rest of a
// run's service side; here one connection reads every reply into one reused buffer (the socket's
// `onread`) and writes the bytes of a hash field to the file as they arrive, ≈ 0.2 ms with the file.
// It speaks the small part of RESP it needs: HGET of one field (a bulk string or nil), and the
// AUTH, SELECT and CLIENT SETNAME that set the connection up (simple strings or errors). Requests
// are pipelined and answered in order; a connection that closes or goes silent fails the requests
// it holds (the service retries those runs), and the next request connects again.
import { connect, type Socket } from 'node:net';
import { AtomicFileSync } from '../../cache/formats/index.js';
import type { RedisAddress } from './redis-url.js';

/** Bytes read from the socket at once. */
const READ_BUFFER_BYTES = 1 << 20;
/** A connection that holds requests and gets no byte for this long is given up [ms]. */
const SILENCE_MS = 30_000;

interface Request {
  /** The file the bulk string goes to; none for a set-up command. */
  path?: string;
  sync: boolean;
  resolve(found: boolean): void;
  reject(error: Error): void;
}

export class ResultReader {
  private socket: Socket | undefined;
  /** Requests sent and not answered, in order. */
  private waiting: Request[] = [];
  private readonly buffer = Buffer.allocUnsafe(READ_BUFFER_BYTES);
  /** The reply line read so far (a line may span two reads). */
  private line = '';
  /** Bytes of the current bulk string still to come, and the file they go to. */
  private remaining = 0;
  private file: AtomicFileSync | undefined;
  /** The file of the current bulk string could not be written (its bytes are read and dropped). */
  private fileError: Error | undefined;
  /** CR LF after a bulk string still to skip. */
  private trailer = 0;
  private corked = false;

  constructor(private readonly address: RedisAddress, private readonly name: string) {}

  /**
   * Writes field `field` of hash `key` to `path` (atomically, flushed to the device with `sync`);
   * false when the hash has no such field.
   */
  fetch(key: string, field: string, path: string, sync: boolean): Promise<boolean> {
    return this.send(['HGET', key, field], path, sync);
  }

  close(): void {
    this.fail(new Error('the result reader is closed'));
  }

  private send(command: string[], path: string | undefined, sync: boolean): Promise<boolean> {
    const socket = this.socket ?? this.open();
    return new Promise((resolve, reject) => {
      this.waiting.push({ path, sync, resolve, reject });
      // The requests of one turn go out in one write.
      if (!this.corked) {
        this.corked = true;
        socket.cork();
        process.nextTick(() => {
          this.corked = false;
          socket.uncork();
        });
      }
      socket.write(encode(command));
    });
  }

  private open(): Socket {
    const socket: Socket = connect({
      host: this.address.host,
      port: this.address.port,
      onread: { buffer: this.buffer, callback: (length: number): boolean => this.read(socket, length) },
    });
    socket.setNoDelay(true);
    socket.setTimeout(SILENCE_MS, () => {
      if (this.waiting.length > 0) socket.destroy(new Error(`Redis sent nothing for ${SILENCE_MS / 1000} s`));
    });
    socket.on('error', (error) => this.fail(error, socket));
    socket.on('close', () => this.fail(new Error('the connection to Redis closed'), socket));
    this.socket = socket;
    const setUp = (command: string[]): void => void this.send(command, undefined, false).catch(() => undefined); // fails the rest in reply()
    const { username, password, db } = this.address;
    if (password !== undefined) setUp(username !== undefined ? ['AUTH', username, password] : ['AUTH', password]);
    if (db !== 0) setUp(['SELECT', String(db)]);
    setUp(['CLIENT', 'SETNAME', this.name]);
    return socket;
  }

  /** The requests waiting fail, and the connection is dropped (the next request opens another). */
  private fail(error: Error, socket = this.socket): void {
    if (socket !== this.socket) return;
    this.socket = undefined;
    socket?.destroy();
    this.file?.abort();
    this.file = undefined;
    this.fileError = undefined;
    this.line = '';
    this.remaining = 0;
    this.trailer = 0;
    const waiting = this.waiting;
    this.waiting = [];
    for (const request of waiting) request.reject(error);
  }

  /** Bytes read into this.buffer: reply lines, bulk strings into their files, and their trailers. */
  private read(socket: Socket, length: number): boolean {
    let offset = 0;
    try {
      while (offset < length && socket === this.socket) {
        if (this.remaining > 0) {
          const take = Math.min(this.remaining, length - offset);
          if (!this.fileError) {
            try {
              this.file!.write(this.buffer, offset, take);
            } catch (error) {
              this.fileError = error as Error;
            }
          }
          this.remaining -= take;
          offset += take;
          if (this.remaining === 0) this.trailer = 2;
        } else if (this.trailer > 0) {
          const take = Math.min(this.trailer, length - offset);
          this.trailer -= take;
          offset += take;
          if (this.trailer === 0) this.bulkEnded();
        } else {
          const end = this.buffer.indexOf(10, offset);
          if (end < 0 || end >= length) {
            this.line += this.buffer.toString('latin1', offset, length);
            offset = length;
          } else {
            const line = this.line + this.buffer.toString('latin1', offset, end);
            this.line = '';
            offset = end + 1;
            this.reply(line.endsWith('\r') ? line.slice(0, -1) : line);
          }
        }
      }
    } catch (error) {
      this.fail(error as Error, socket);
    }
    return true;
  }

  /** A reply's first line. */
  private reply(line: string): void {
    const request = this.waiting[0];
    if (!request) throw new Error(`Redis sent a reply nobody asked for: ${line.slice(0, 80)}`);
    const kind = line[0];
    if (kind === '-') {
      this.waiting.shift();
      const error = new Error(`Redis refused: ${line.slice(1)}`);
      request.reject(error);
      // A refused set-up (a wrong password) fails what waits behind it with its reason.
      if (request.path === undefined) throw error;
    } else if (kind === '+' && request.path === undefined) {
      this.waiting.shift();
      request.resolve(true);
    } else if (kind === '$' && request.path !== undefined) {
      const size = Number(line.slice(1));
      if (size === -1) {
        this.waiting.shift();
        request.resolve(false);
        return;
      }
      if (!Number.isInteger(size) || size < 0) throw new Error(`Redis sent a bulk string of length ${line.slice(1, 40)}`);
      try {
        this.file = new AtomicFileSync(request.path);
      } catch (error) {
        this.fileError = error as Error;
      }
      this.remaining = size;
      if (size === 0) this.trailer = 2;
    } else {
      throw new Error(`Redis sent a reply this reader does not expect: ${line.slice(0, 80)}`);
    }
  }

  /** The end of a bulk string: its file is renamed into place. */
  private bulkEnded(): void {
    const request = this.waiting.shift()!;
    const file = this.file;
    const error = this.fileError;
    this.file = undefined;
    this.fileError = undefined;
    if (error) {
      file?.abort();
      request.reject(error);
      return;
    }
    try {
      file!.commit({ sync: request.sync });
      request.resolve(true);
    } catch (failure) {
      request.reject(failure as Error);
    }
  }
}

/** A command as a RESP array of bulk strings. */
function encode(command: string[]): Buffer {
  let text = `*${command.length}\r\n`;
  for (const part of command) text += `$${Buffer.byteLength(part)}\r\n${part}\r\n`;
  return Buffer.from(text);
}
