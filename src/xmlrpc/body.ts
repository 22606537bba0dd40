// Reading an XML-RPC request body: a small one goes straight into the bounded XML reader as its
// bytes arrive (UTF-8 decoded in streaming mode), so nothing but the element tree is kept; one
// above OFF_THREAD_BYTES, or of unannounced length, is collected and parsed on the parsing thread
// (parse-thread.ts), so that it never holds up the event loop. A body larger than
// the limit is refused: at once when Content-Length announces it, else as soon as the count passes
// the limit; the rest is read and dropped (up to DISCARD_LIMIT_BYTES) so that the client, which
// sends its whole request before reading the answer, receives the fault instead of a reset.
import type { IncomingMessage } from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import { decodeMethodCall, type MethodCall } from './decode.js';
import { parseOnThread } from './parse-thread.js';
import { XmlReader } from './xml-reader.js';
import { FAULT, XmlRpcFault } from './values.js';

export interface BodyLimits {
  maxBodyBytes: number;
  maxDepth: number;
}

/** Bodies larger than this are parsed on the parsing thread. */
export const OFF_THREAD_BYTES = 256 * 1024;

/** Past this many bytes of a refused body the connection is cut instead of drained. */
const DISCARD_LIMIT_BYTES = 1024 ** 3;

function tooLarge(limit: number, size?: number): XmlRpcFault {
  const what = size === undefined ? 'the request body' : `the request body (${size} bytes)`;
  return new XmlRpcFault(FAULT.TOO_LARGE, `${what} exceeds the limit of ${limit} bytes (SIM_RMI_MAX_BODY_SIZE)`);
}

/** Waits for the end of a body that is no longer wanted, dropping its bytes. */
function drain(request: IncomingMessage): Promise<void> {
  return new Promise((resolve) => {
    let dropped = 0;
    request.removeAllListeners('data');
    request.on('data', (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > DISCARD_LIMIT_BYTES) {
        request.socket.destroy();
        resolve();
      }
    });
    request.once('end', () => resolve());
    request.once('close', () => resolve());
    request.resume();
  });
}

/** The whole body, at most `limit` bytes (else the TOO_LARGE fault, after draining the body). */
async function collect(request: IncomingMessage, limit: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  const outcome = await new Promise<XmlRpcFault | number>((resolve) => {
    let received = 0;
    let refused = false;
    const onData = (chunk: Buffer): void => {
      received += chunk.length;
      if (received <= limit) {
        chunks.push(chunk);
        return;
      }
      refused = true;
      chunks.length = 0;
      void drain(request).then(() => resolve(tooLarge(limit)));
    };
    request.on('data', onData);
    request.once('end', () => {
      if (!refused) resolve(received);
    });
    request.once('error', (error) => resolve(new XmlRpcFault(FAULT.PARSE_ERROR, `the request body could not be read: ${error.message}`)));
  });
  if (outcome instanceof XmlRpcFault) throw outcome;
  // A fresh buffer of its own, whose memory can be handed to the parsing thread.
  const bytes = new Uint8Array(outcome);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

/** The method call in the request body; an XmlRpcFault for anything else (after draining the body). */
export async function readMethodCall(request: IncomingMessage, limits: BodyLimits): Promise<MethodCall> {
  const announced = Number(request.headers['content-length']);
  if (Number.isFinite(announced) && announced > limits.maxBodyBytes) {
    await drain(request);
    throw tooLarge(limits.maxBodyBytes, announced);
  }
  if (!Number.isFinite(announced) || announced > OFF_THREAD_BYTES) return parseOnThread(await collect(request, limits.maxBodyBytes), limits.maxDepth);
  const reader = new XmlReader({ maxDepth: limits.maxDepth });
  const decoder = new StringDecoder('utf8');
  const failure = await new Promise<XmlRpcFault | undefined>((resolve) => {
    let received = 0;
    let failed: XmlRpcFault | undefined;
    const stop = (fault: XmlRpcFault): void => {
      failed = fault;
      void drain(request).then(() => resolve(fault));
    };
    request.on('data', (chunk: Buffer) => {
      if (failed) return;
      received += chunk.length;
      if (received > limits.maxBodyBytes) return stop(tooLarge(limits.maxBodyBytes));
      try {
        reader.write(decoder.write(chunk));
      } catch (error) {
        stop(error instanceof XmlRpcFault ? error : new XmlRpcFault(FAULT.PARSE_ERROR, String(error)));
      }
    });
    request.once('end', () => {
      if (failed) return;
      try {
        reader.write(decoder.end());
        resolve(undefined);
      } catch (error) {
        resolve(error instanceof XmlRpcFault ? error : new XmlRpcFault(FAULT.PARSE_ERROR, String(error)));
      }
    });
    request.once('error', (error) => resolve(new XmlRpcFault(FAULT.PARSE_ERROR, `the request body could not be read: ${error.message}`)));
  });
  if (failure) throw failure;
  return decodeMethodCall(reader.close());
}
