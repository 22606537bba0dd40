// Running submissions on the service's job runtime and waiting for their end: what the XML-RPC
// methods do instead of running the engine themselves, so that their runs are tasks like any other
// (listed by GET /api/v1/simulations, progress on SSE/STOMP, cached, retried). Aborting the wait
// cancels the task through the scheduler.
import type { Progress } from '../engine/controller.js';
import type { ServiceRuntime } from '../jobs/runtime.js';
import type { SubmitInput } from '../jobs/scheduler.js';
import { FINAL_STATES, type StoredResult, type TaskRecord } from '../jobs/types.js';
import { PesimError } from '../errors/pesim-error.js';

/** The task ended without a result: `code` TASK_FAILED, TASK_CANCELLED or TASK_TIMEOUT (runOnRuntime). */
export class RuntimeRunError extends PesimError {
  constructor(
    code: string,
    readonly task: TaskRecord,
    message: string,
  ) {
    super(code, message, { taskId: task.id, state: task.state });
  }
}

export interface WaitOptions {
  signal?: AbortSignal;
  /** Wall-clock seconds before the task is cancelled (0 or absent: no limit). */
  timeoutSeconds?: number;
  onProgress?: (progress: Progress) => void;
}

export interface FinishedRun {
  task: TaskRecord;
  result: StoredResult;
}

interface Waiter {
  onState(task: TaskRecord): void;
  onProgress(task: TaskRecord, progress: TaskRecord['progress']): void;
}

/**
 * One listener pair per event bus, dispatching by task id to the waiters: a plecs.simulate list of
 * N runs waits on N tasks, and N listeners of their own would make every event cost O(N).
 */
const dispatchers = new WeakMap<ServiceRuntime['events'], Map<string, Set<Waiter>>>();

function watch(events: ServiceRuntime['events'], id: string, waiter: Waiter): () => void {
  let byId = dispatchers.get(events);
  if (!byId) {
    const table = new Map<string, Set<Waiter>>();
    byId = table;
    dispatchers.set(events, table);
    events.on('state', (task) => {
      for (const w of [...(table.get(task.id) ?? [])]) w.onState(task);
    });
    events.on('progress', (task, progress) => {
      for (const w of [...(table.get(task.id) ?? [])]) w.onProgress(task, progress);
    });
  }
  const table = byId;
  const set = table.get(id) ?? new Set<Waiter>();
  set.add(waiter);
  table.set(id, set);
  return () => {
    set.delete(waiter);
    if (set.size === 0) table.delete(id);
  };
}

/** Waits for a submitted task's final state; resolves with its result or rejects with RuntimeRunError. */
export function awaitTask(runtime: ServiceRuntime, submitted: TaskRecord, options: WaitOptions = {}): Promise<FinishedRun> {
  const { scheduler, events } = runtime;
  const id = submitted.id;
  let timedOut = false;
  return new Promise<TaskRecord>((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    let unwatch = (): void => undefined;
    const finish = (task: TaskRecord): void => {
      unwatch();
      options.signal?.removeEventListener('abort', onAbort);
      if (timer) clearTimeout(timer);
      resolve(task);
    };
    const onState = (task: TaskRecord): void => {
      if (task.id === id && FINAL_STATES.includes(task.state)) finish(task);
    };
    const onProgress = (task: TaskRecord, progress: TaskRecord['progress']): void => {
      if (task.id === id && progress && options.onProgress) {
        options.onProgress({ phase: progress.phase, step: progress.step, totalSteps: progress.totalSteps, time: progress.time, percent: progress.percent, paused: false });
      }
    };
    const cancel = (): void => {
      const current = scheduler.get(id);
      if (!FINAL_STATES.includes(current.state)) scheduler.cancel(id);
    };
    const onAbort = (): void => cancel();
    unwatch = watch(events, id, { onState, onProgress });
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.timeoutSeconds && options.timeoutSeconds > 0) {
      timer = setTimeout(() => {
        timedOut = true;
        cancel(); // the cancelled state event ends the wait
      }, options.timeoutSeconds * 1000);
    }
    const current = FINAL_STATES.includes(submitted.state) ? submitted : scheduler.get(id);
    if (FINAL_STATES.includes(current.state)) finish(current);
    else if (options.signal?.aborted) cancel();
  }).then(async (task) => {
    if (task.state === 'completed') return { task, result: await scheduler.result(id) };
    if (task.state === 'cancelled') {
      throw new RuntimeRunError(timedOut ? 'TASK_TIMEOUT' : 'TASK_CANCELLED', task, timedOut ? `TIMEOUT: the run exceeded its time-out of ${options.timeoutSeconds} s and was cancelled` : 'CANCELLED: the simulation was cancelled');
    }
    throw new RuntimeRunError('TASK_FAILED', task, `${task.errorCode ?? 'FAILED'}: ${task.errorMessage ?? 'the simulation failed'}`);
  });
}

/** Submits and waits. */
export async function runOnRuntime(runtime: ServiceRuntime, input: SubmitInput, options: WaitOptions = {}): Promise<FinishedRun> {
  const task = await runtime.scheduler.submit(input);
  return awaitTask(runtime, task, options);
}
