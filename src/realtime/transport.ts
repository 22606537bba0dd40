// The tiny interface a STOMP session needs from its connection, so one session class serves the
// plain WebSocket endpoint (/ws-raw) and the SockJS endpoint (/ws) alike. The endpoint adapters
// feed received data to StompSession.receive() and report the end with StompSession.closed().

export interface Transport {
  /** 'websocket' for /ws-raw, or the SockJS transport name (websocket, xhr-streaming, ...). */
  readonly kind: string;
  /** Sends serialized frames (UTF-8 text) as one transport message. */
  send(data: Buffer): void;
  /** Bytes handed to send() that the peer has not taken yet (a slow consumer's backlog). */
  bufferedAmount(): number;
  /** Closes after the data already sent (the ERROR frame before a close goes out first). */
  close(): void;
  /** Drops the connection at once (slow consumers). */
  terminate(): void;
}

/** Where log lines of the realtime endpoints go (a pino logger fits). */
export interface RealtimeLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

export const silentLogger: RealtimeLogger = { info: () => undefined, warn: () => undefined };
