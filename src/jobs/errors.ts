// Errors of the job runtime, with the codes the services map to their responses.
import { PesimError, type ErrorFacts } from '../errors/pesim-error.js';

export class JobError extends PesimError {
  constructor(code: string, message: string, facts?: ErrorFacts) {
    super(code, message, facts);
  }
}

/** The queue holds `queueSize` unfinished tasks already. */
export class QueueFullError extends JobError {
  constructor(readonly queueSize: number, readonly retryAfterSeconds: number) {
    super('QUEUE_FULL', `The queue is full (${queueSize} unfinished tasks); retry in about ${retryAfterSeconds} s`);
  }
}

export class TaskNotFoundError extends JobError {
  declare readonly taskId: string;

  constructor(taskId: string) {
    super('TASK_NOT_FOUND', `No task ${taskId}`, { taskId });
  }
}

/** The operation (`cancel`, `pause`, ...) is not allowed in the task's present state. */
export class InvalidStateError extends JobError {
  declare readonly taskId: string;
  declare readonly state: string;

  constructor(taskId: string, state: string, readonly operation: string) {
    super('INVALID_STATE', `Cannot ${operation} task ${taskId}: it is ${state}`, { taskId, state });
  }
}
