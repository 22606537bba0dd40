// Errors of the job runtime, with the codes the services map to HTTP responses.

export class JobError extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/** The queue holds `queueSize` unfinished tasks already. */
export class QueueFullError extends JobError {
  constructor(readonly queueSize: number, readonly retryAfterSeconds: number) {
    super('QUEUE_FULL', `The queue is full (${queueSize} unfinished tasks); retry in about ${retryAfterSeconds} s`);
  }
}

export class TaskNotFoundError extends JobError {
  constructor(readonly taskId: string) {
    super('TASK_NOT_FOUND', `No task ${taskId}`);
  }
}

/** The operation is not allowed in the task's present state. */
export class InvalidStateError extends JobError {
  constructor(readonly taskId: string, readonly state: string, operation: string) {
    super('INVALID_STATE', `Cannot ${operation} task ${taskId}: it is ${state}`);
  }
}
