// One worker thread answering requests by id: started on first use, restarted after it dies, and
// never keeping the process alive while nothing waits on it. The services parse large request
// bodies on such threads (src/http/json-off-thread.ts, src/xmlrpc/parse-thread.ts).
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

/** What a thread's module answers: the id of the request it answers, and its own fields. */
export interface ThreadAnswer {
  id: number;
}

/**
 * The thread's module `<base>.js`, compiled; under tsx (tests) the `.ts` source, loaded through
 * require() by a bootstrap module, since a thread's own entry module does not go through tsx's loader.
 */
export function threadEntry(base: URL): URL {
  if (!import.meta.url.endsWith('.ts')) return new URL(`${base.href}.js`);
  const source = fileURLToPath(`${base.href}.ts`);
  const bootstrap = `import { createRequire } from 'node:module'; createRequire(${JSON.stringify(source)})(${JSON.stringify(source)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(bootstrap)}`);
}

export class RequestThread<Answer extends ThreadAnswer> {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (answer: Answer) => void; reject: (error: Error) => void }>();

  /** `module`: the thread's module without its extension; `name` names the thread in errors. */
  constructor(private readonly module: URL, private readonly name: string) {}

  /** Sends `request` (with an id added) and waits for its answer; `transfer` is moved, not copied. */
  request(request: Record<string, unknown>, transfer: ArrayBuffer[]): Promise<Answer> {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ ...request, id }, transfer);
    });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(threadEntry(this.module));
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
    worker.on('exit', (code) => fail(new Error(`the ${this.name} thread stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }
}
