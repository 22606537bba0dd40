// Large XML-RPC request bodies are parsed on a thread of their own: the reader is fast on plain
// text, but a 30 MB string written as `&amp;` entities builds millions of string pieces whose
// garbage collection held the event loop for over half a second at a time (and 7 s of CPU in
// all), and a 64 MB <base64> is checked and decoded in one piece. The thread (parse-worker.ts)
// gets the body's bytes and answers the method call or the fault; the body's own Buffers come
// back as Uint8Arrays and are made Buffers again here.
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
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

/**
 * The thread's module: the compiled .js file; under tsx (tests) the .ts source, loaded through
 * require() by a bootstrap module, since a thread's own entry module does not go through tsx's loader.
 */
function threadEntry(base: URL): URL {
  if (!import.meta.url.endsWith('.ts')) return new URL(`${base.href}.js`);
  const source = fileURLToPath(`${base.href}.ts`);
  const bootstrap = `import { createRequire } from 'node:module'; createRequire(${JSON.stringify(source)})(${JSON.stringify(source)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`);
}

/** The one parsing thread of the process, started on first use; it never keeps the process alive. */
class ParseThread {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (answer: Answer) => void; reject: (error: Error) => void }>();

  async parse(bytes: Uint8Array, maxDepth: number): Promise<MethodCall> {
    const worker = this.start();
    const id = this.nextId++;
    const answer = await new Promise<Answer>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.ref();
      // The bytes are moved, not copied: they were read for this request alone.
      worker.postMessage({ id, bytes, maxDepth }, [bytes.buffer as ArrayBuffer]);
    });
    if (answer.fault) throw new XmlRpcFault(answer.fault.code, answer.fault.message);
    const call = answer.call!;
    return { methodName: call.methodName, params: call.params.map(restoreBuffers) };
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(threadEntry(new URL('./parse-worker', import.meta.url)));
    worker.unref();
    worker.on('message', (answer: Answer) => {
      const pending = this.waiting.get(answer.id);
      this.waiting.delete(answer.id);
      if (this.waiting.size === 0) worker.unref();
      pending?.resolve(answer);
    });
    const fail = (error: Error): void => {
      this.worker = undefined;
      for (const pending of this.waiting.values()) pending.reject(error);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the XML-RPC parsing thread stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }
}

const thread = new ParseThread();

/** The method call in a whole body, parsed on the thread; an XmlRpcFault for anything else. */
export function parseOnThread(bytes: Uint8Array, maxDepth: number): Promise<MethodCall> {
  return thread.parse(bytes, maxDepth);
}
