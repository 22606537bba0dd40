// The in-process event bus of the job runtime: state changes of every task, and progress at most
// every 100 ms per task. The HTTP layers (SSE, STOMP, WebSocket) subscribe here.
import { EventEmitter } from 'node:events';
import type { TaskProgress, TaskRecord } from './types.js';

export interface TaskEventMap {
  state: [task: TaskRecord];
  progress: [task: TaskRecord, progress: TaskProgress];
}

export class TaskEvents extends EventEmitter<TaskEventMap> {
  constructor() {
    super();
    this.setMaxListeners(0); // one listener per subscriber; slow ones are dropped by their layer
  }
}
