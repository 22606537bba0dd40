// STOMP frames: the frame type, the protocol versions, header escaping per version and the
// serializer. The escaping rules (STOMP 1.1 §"Value Encoding", 1.2 §"Value Encoding"):
//   1.0  no escaping at all;
//   1.1  \\ \n \c (backslash, line feed, colon) escaped in headers, except in CONNECT/CONNECTED;
//   1.2  as 1.1 plus \r, again except in CONNECT/CONNECTED.
// An undefined escape sequence in a received header is a protocol error (see parser.ts).

export type StompVersion = '1.0' | '1.1' | '1.2';
/** Supported versions, lowest first. */
export const STOMP_VERSIONS: readonly StompVersion[] = ['1.0', '1.1', '1.2'];

/** Commands a client may send (STOMP 1.2 §"Client Frames"). */
export const CLIENT_COMMANDS = ['CONNECT', 'STOMP', 'SEND', 'SUBSCRIBE', 'UNSUBSCRIBE', 'ACK', 'NACK', 'BEGIN', 'COMMIT', 'ABORT', 'DISCONNECT'] as const;
export type ClientCommand = (typeof CLIENT_COMMANDS)[number];
export type ServerCommand = 'CONNECTED' | 'MESSAGE' | 'RECEIPT' | 'ERROR';

export interface StompFrame {
  command: string;
  /** Header entries in order of appearance, repeated names included (the first one counts). */
  headers: [string, string][];
  body: Buffer;
}

export interface OutgoingFrame {
  command: ServerCommand;
  headers: Record<string, string | undefined>;
  body?: string;
}

export function isClientCommand(command: string): command is ClientCommand {
  return (CLIENT_COMMANDS as readonly string[]).includes(command);
}

/** The value of the first header of that name (STOMP 1.2: repeated headers, the first wins). */
export function header(frame: StompFrame, name: string): string | undefined {
  return frame.headers.find(([key]) => key === name)?.[1];
}

/** The first header whose name matches case-insensitively (X-API-Key, x-api-key, ...). */
export function headerIgnoringCase(frame: StompFrame, name: string): string | undefined {
  const wanted = name.toLowerCase();
  return frame.headers.find(([key]) => key.toLowerCase() === wanted)?.[1];
}

/** Whether the headers of this command are escaped in this version. */
export function escapesHeaders(version: StompVersion | undefined, command: string): boolean {
  if (version === undefined || version === '1.0') return false;
  return command !== 'CONNECT' && command !== 'CONNECTED' && command !== 'STOMP';
}

export function escapeHeaderValue(value: string, version: StompVersion): string {
  let out = '';
  for (const ch of value) {
    if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === ':') out += '\\c';
    else if (ch === '\r' && version === '1.2') out += '\\r';
    else out += ch;
  }
  return out;
}

/** Reverses escapeHeaderValue; returns undefined for an undefined escape sequence. */
export function unescapeHeaderValue(value: string, version: StompVersion): string | undefined {
  if (!value.includes('\\')) return value;
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const ch = value[i];
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const next = value[++i];
    if (next === '\\') out += '\\';
    else if (next === 'n') out += '\n';
    else if (next === 'c') out += ':';
    else if (next === 'r' && version === '1.2') out += '\r';
    else return undefined;
  }
  return out;
}

/**
 * Serializes a server frame for a session speaking `version` (undefined before CONNECTED: no
 * escaping). A body gets a content-length header; values that cannot be escaped in 1.0 (line
 * breaks) are replaced by spaces so a frame can never be split by its own header.
 */
export function serializeFrame(frame: OutgoingFrame, version: StompVersion | undefined): Buffer {
  const body = frame.body === undefined ? undefined : Buffer.from(frame.body, 'utf8');
  const escape = escapesHeaders(version, frame.command);
  const lines: string[] = [frame.command];
  for (const [name, value] of Object.entries(frame.headers)) {
    if (value === undefined) continue;
    lines.push(`${escape ? escapeHeaderValue(name, version!) : flatten(name)}:${escape ? escapeHeaderValue(value, version!) : flatten(value)}`);
  }
  if (body) lines.push(`content-length:${body.length}`);
  const head = Buffer.from(`${lines.join('\n')}\n\n`, 'utf8');
  return Buffer.concat(body ? [head, body, NUL] : [head, NUL]);
}

const NUL = Buffer.from([0]);

function flatten(value: string): string {
  return value.replace(/[\r\n]/g, ' ');
}
