// Large XML-RPC request bodies are parsed on a thread of their own: the reader is fast on plain
// text, but a 30 MB string written as `&amp;` entities builds millions of string pieces whose
// garbage collection held the event loop for over half a second at a time (and 7 s of CPU in
// all), and a 64 MB <base64> is checked and decoded in one piece. The thread (parse-worker.ts)
// gets the body's bytes and answers the method call or the fault; the body's own Buffers come
// back as Uint8Arrays and are made Buffers again here.
import { RequestThread } from '../threads/request-thread.js';
import type { MethodCall } from './decode.js';
import { XmlRpcFault, type XmlRpcValue } from './values.js';

interface Answer {
  id: number;
  call?: MethodCall;
  fault?: { code: number; message: string };
}

/** Structured cloning turns a Buffer into a Uint8Array, and the decoder promises Buffers. */
function restoreBuffers(value: XmlRpcValue): XmlRpcValue {
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  if (Array.isArray(value)) return value.map(restoreBuffers);
  if (value !== null && typeof value === 'object' && !(value instanceof Date) && !(value instanceof Float64Array)) {
    const out: Record<string, XmlRpcValue> = {};
    for (const [name, member] of Object.entries(value)) out[name] = restoreBuffers(member);
    return out;
  }
  return value;
}

/** The one XML-RPC parsing thread of the process (parse-worker.ts). */
const thread = new RequestThread<Answer>(new URL('./parse-worker', import.meta.url), 'XML-RPC parsing');

/** The method call in a whole body, parsed on the thread; an XmlRpcFault for anything else. */
export async function parseOnThread(bytes: Uint8Array, maxDepth: number): Promise<MethodCall> {
  // The bytes are moved, not copied: they were read for this request alone.
  const answer = await thread.request({ bytes, maxDepth }, [bytes.buffer as ArrayBuffer]);
  if (answer.fault) throw new XmlRpcFault(answer.fault.code, answer.fault.message);
  const call = answer.call!;
  return { methodName: call.methodName, params: call.params.map(restoreBuffers) };
}
