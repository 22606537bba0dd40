// Routes of spec §4 for simulation tasks: submit, batch submit, task record, result and cancel.
// Thin: the service checks and runs, the presenter shapes the bodies.
import { Readable } from 'node:stream';
import { Body, Controller, Delete, Example, Get, Header, Path, Post, Query, Response, Route, SuccessResponse, Tags } from '@tsoa/runtime';
import { negotiateTableFormat, resultsTableChunks, RESULTS_TABLE_CONTENT_TYPES, RESULTS_TABLE_FORMATS } from '../../engine/results-table.js';
import { JobqError } from '../errors.js';
import type { ErrorResponse, HTTPValidationError, BatchResponse, SimulationRequest, SimulationResponse, SimulationResult, SubmitResponse, TaskStatusMessage } from '../models.js';
import type { JobqService } from '../service.js';
import { presentCancelled, presentInProgress, presentResult, presentSubmit, presentTask } from '../TaskPresenter.js';

@Route('simulations')
@Tags('Simulations')
export class SimulationsController extends Controller {
  constructor(private readonly service: JobqService) {
    super();
  }

  /** Queues one simulation. A result-cache hit completes it at once (`status: completed`). */
  @Post()
  @SuccessResponse(201, 'Queued')
  @Response<ErrorResponse>(400, 'INVALID_PRIORITY, INVALID_MODEL_PATH or VALIDATION_ERROR (parameters, output_variables, unreadable model)')
  @Response<ErrorResponse>(404, 'MODEL_NOT_FOUND')
  @Response<HTTPValidationError>(422, 'Required field missing or of the wrong type, a model with more steps than orchestration.max_steps, or a model that cannot be simulated')
  @Response<ErrorResponse>(415, 'UNSUPPORTED_MEDIA_TYPE: a body that is not application/json')
  @Response<ErrorResponse>(507, 'STORAGE_FULL: the data directory is full (reads go on; /health reports store_writable false)')
  @Response<ErrorResponse>(500, 'SIMULATOR_CONNECTION_ERROR or INTERNAL_ERROR')
  @Response<ErrorResponse>(503, 'QUEUE_FULL (with Retry-After)')
  @Example<SimulationRequest>({ model_file: 'buck.ipes', parameters: { 'R.1.R': 10 }, output_variables: ['SCOPE.1.ch1'], priority: 'HIGH' })
  public async submitSimulation(@Body() request: SimulationRequest): Promise<SubmitResponse> {
    const task = await this.service.submit(request);
    this.setStatus(201);
    return presentSubmit(task);
  }

  /**
   * Queues a list of simulations atomically: every item is checked first, and one bad item (named
   * by its index in `field`) queues nothing. 1 to `orchestration.queue_size` items (422 otherwise).
   */
  @Post('batch')
  @SuccessResponse(201, 'Queued')
  @Response<ErrorResponse>(400, 'An item is invalid (field `[index].<field>`)')
  @Response<ErrorResponse>(404, 'MODEL_NOT_FOUND for an item')
  @Response<HTTPValidationError>(422, 'Empty list, too many items, or an item of the wrong shape')
  @Response<ErrorResponse>(415, 'UNSUPPORTED_MEDIA_TYPE: a body that is not application/json')
  @Response<ErrorResponse>(507, 'STORAGE_FULL: the data directory is full (reads go on; /health reports store_writable false)')
  @Response<ErrorResponse>(503, 'QUEUE_FULL (with Retry-After)')
  public async submitBatch(@Body() requests: SimulationRequest[]): Promise<BatchResponse> {
    const { batchId, tasks } = await this.service.submitBatch(requests);
    this.setStatus(201);
    return {
      batch_id: batchId,
      task_ids: tasks.map((t) => t.id),
      batch_size: tasks.length,
      message: `${tasks.length} simulations queued successfully`,
      submitted_at: tasks[0].submittedAt,
    };
  }

  /**
   * Extension: the results of a batch as one table, a row per task in the order of the items
   * (`run` from 0, `task_id`, `status`, the item's parameters, every measurement
   * `<SCOPE>.<n>.ch<k>_<avg|rms|min|max>`, `duration_ms`, `error_message`), as JSON
   * (`{batch_id, batch_size, parameters, measurements, rows: [...]}`), CSV or Parquet: `format`,
   * else the Accept header (application/json, text/csv, application/vnd.apache.parquet), else
   * JSON. Streamed from the store; unfinished tasks show their status and no measurements.
   * @param format json, csv or parquet (overrides Accept)
   */
  @Get('batch/{batch_id}/results')
  @SuccessResponse(200, 'The results table', ['application/json', 'text/csv', 'application/vnd.apache.parquet'])
  @Response<ErrorResponse>(400, 'INVALID_FORMAT')
  @Response<ErrorResponse>(404, 'BATCH_NOT_FOUND')
  public async getBatchResults(@Path() batch_id: string, @Query() format?: string, @Header('accept') accept?: string): Promise<unknown> {
    const chosen = negotiateTableFormat(format, accept);
    if (!chosen) {
      throw new JobqError(400, 'INVALID_FORMAT', `format must be one of ${RESULTS_TABLE_FORMATS.join(', ')}, got ${JSON.stringify(format)}`, { field: 'format', suggestion: 'Use ?format=json, csv or parquet' });
    }
    const table = await this.service.batchResults(batch_id);
    this.setHeader('Content-Type', RESULTS_TABLE_CONTENT_TYPES[chosen]);
    return Readable.from(resultsTableChunks(table.layout, table.rows, chosen));
  }

  /** The task record. */
  @Get('{task_id}')
  @Response<ErrorResponse>(404, 'TASK_NOT_FOUND')
  public async getSimulation(@Path() task_id: string): Promise<SimulationResponse> {
    return presentTask(this.service.task(task_id));
  }

  /**
   * 200 with the result when completed or failed (`status: failed` with `error_message`), 200 with a
   * message when cancelled, 202 with the status while queued or running.
   */
  @Get('{task_id}/result')
  @Response<TaskStatusMessage>(202, 'Still queued or running')
  @Response<ErrorResponse>(404, 'TASK_NOT_FOUND')
  public async getResult(@Path() task_id: string): Promise<SimulationResult | TaskStatusMessage> {
    const task = this.service.task(task_id);
    if (task.state === 'cancelled') return presentCancelled(task);
    if (task.state !== 'completed' && task.state !== 'failed') {
      this.setStatus(202);
      return presentInProgress(task);
    }
    return presentResult(task, await this.service.result(task), this.service.simulatorVersion);
  }

  /** Cancels a queued or running task; a running engine run is stopped. */
  @Delete('{task_id}')
  @Response<ErrorResponse>(400, 'TASK_NOT_CANCELLABLE: the task is completed, failed or cancelled')
  @Response<ErrorResponse>(404, 'TASK_NOT_FOUND')
  public async cancelSimulation(@Path() task_id: string): Promise<TaskStatusMessage> {
    return presentCancelled(this.service.cancel(task_id), 'Simulation cancelled successfully');
  }
}
