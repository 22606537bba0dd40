// HTTP interface of batches (/api/v1/simulations/batch): submission of a list or a parameter
// sweep, batch status, and cancel of the batch's unfinished simulations.
import { Readable } from 'node:stream';
import { Body, Controller, Delete, Example, Get, Header, Path, Post, Query, Response, Route, Security, SuccessResponse, Tags } from '@tsoa/runtime';
import { negotiateTableFormat, resultsTableChunks, RESULTS_TABLE_CONTENT_TYPES, RESULTS_TABLE_FORMATS } from '../engine/results-table.js';
import type { ErrorBody } from '../http/error-body.js';
import { validationError } from '../http/errors.js';
import { paging } from '../http/paging.js';
import { presentBatchStatus, type BatchStatus, type BatchSubmission } from './BatchPresenter.js';
import type { BatchRequest, BatchService } from './BatchService.js';


/** What the batch endpoints need of the service. */
export interface BatchDeps {
  batches: BatchService;
}

@Route('api/v1/simulations/batch')
@Tags('batches')
@Security('api_key')
@Response<ErrorBody>(400, 'Invalid request (no item is queued)', { error: 'VALIDATION_ERROR', message: 'sweep.R.9.R: no such component', details: [{ field: 'base.parameters.R.9.R', message: 'no such component' }], path: '/api/v1/simulations/batch', timestamp: '2025-01-01T12:00:00.000Z' })
@Response<ErrorBody>(401, 'API key missing or invalid (when sim.api.auth-enabled)')
@Response<ErrorBody>(404, 'Unknown batch or circuit', { error: 'BATCH_NOT_FOUND', message: 'No batch 7a9e3c10-2b4d-4f6a-8c1e-0d5b9f2a6e38', path: '/api/v1/simulations/batch/7a9e3c10-2b4d-4f6a-8c1e-0d5b9f2a6e38', timestamp: '2025-01-01T12:00:00.000Z' })
@Response<ErrorBody>(415, 'A request body that is not application/json (multipart/form-data for uploads)', { error: 'UNSUPPORTED_MEDIA_TYPE', message: 'The request body has the Content-Type text/plain, which this service does not read: send application/json (multipart/form-data for file uploads)', details: [{ field: 'Content-Type', message: 'must be application/json (multipart/form-data for file uploads)' }], path: '/api/v1/simulations', timestamp: '2025-01-01T12:00:00.000Z' })
@Response<ErrorBody>(500, 'Internal error')
@Response<ErrorBody>(507, 'The data directory is full: nothing new is stored until space is freed (reads go on; /actuator/health shows the store DEGRADED)', { error: 'STORAGE_FULL', message: 'The data directory /var/lib/pesim is full: nothing new can be stored until space is freed there (database or disk is full); stored simulations and results can still be read', path: '/api/v1/simulations', timestamp: '2025-01-01T12:00:00.000Z' })
export class BatchController extends Controller {
  constructor(private readonly services: BatchDeps) {
    super();
  }

  /**
   * Queues several simulations as one batch: either `simulations` (a list of SimulationRequests)
   * or `base` with `sweep` (parameter key → values) and `mode` grid (every combination, default)
   * or zip. All items are checked first: one bad item queues nothing.
   */
  @Post()
  @SuccessResponse(202, 'Accepted; Location names the batch')
  @Example<BatchSubmission>({ batchId: '7a9e3c10-2b4d-4f6a-8c1e-0d5b9f2a6e38', simulationIds: ['3d2f8a61-5c4b-4e0f-8a7d-9b1c2e3f4a5b'], totalSimulations: 1 })
  @Response<ErrorBody>(413, 'Body larger than sim.api.max-body-size')
  @Response<ErrorBody>(422, 'A circuit is invalid, or an item has too many steps')
  @Response<ErrorBody>(503, 'Queue full; retry after Retry-After seconds')
  public async submit(@Body() body: BatchRequest): Promise<BatchSubmission> {
    const { batch } = await this.services.batches.submit(body);
    this.setStatus(202);
    this.setHeader('Location', `/api/v1/simulations/batch/${batch.id}`);
    return { batchId: batch.id, simulationIds: batch.taskIds, totalSimulations: batch.taskIds.length };
  }

  /**
   * Counts per state, overall progress and one entry per simulation (docs/spec/simulation-service.md
   * §2.5). The counts cover the whole batch; the entries are a page (`limit`, default 1 000, and
   * `offset`, in batch order): a batch of 100 000 runs answers as fast as one of ten. Its whole
   * table of results is GET /api/v1/simulations/batch/{batchId}/results.
   * @param limit entries per page (1–1000, default 1000)
   * @param offset entries to skip
   */
  @Get('{batchId}')
  @Example<BatchStatus>({
    batchId: '7a9e3c10-2b4d-4f6a-8c1e-0d5b9f2a6e38', totalSimulations: 2, completed: 1, failed: 1, running: 0, pending: 0, paused: 0, cancelled: 0,
    overallProgress: 100, done: true, submittedAt: '2025-01-01T12:00:00.000Z',
    simulations: {
      '3d2f8a61-5c4b-4e0f-8a7d-9b1c2e3f4a5b': { status: 'completed', progress: 100, parameterSet: { 'R.1.R': 5 } },
      '9c8b7a65-4d3e-4f21-8a0b-1c2d3e4f5a6b': { status: 'failed', progress: 100, parameterSet: { 'R.1.R': 0 }, errorMessage: 'singular matrix at t = 0' },
    },
    failedIds: ['9c8b7a65-4d3e-4f21-8a0b-1c2d3e4f5a6b'],
  })
  public status(@Path() batchId: string, @Query() limit?: number, @Query() offset?: number): BatchStatus {
    const page = paging(limit ?? 1000, offset);
    return presentBatchStatus(this.services.batches.get(batchId, page.limit, page.offset));
  }

  /**
   * The batch's results as one table: a row per simulation in batch order (`run` from 0,
   * `simulationId`, `status`, its parameter values, every measurement
   * `<SCOPE>.<n>.ch<k>_<avg|rms|min|max>`, `durationMs`, `errorMessage`), as JSON
   * (`{batchId, totalSimulations, parameters, measurements, rows: [...]}`), CSV (one column per
   * parameter and measurement; empty cells where a run has no value) or Parquet (doubles, NaN
   * where a run has no value; id, status and error as UTF-8 text). Chosen by `format`, else by
   * the Accept header (application/json, text/csv, application/vnd.apache.parquet), else JSON.
   * Streamed as it is read from the store: any number of rows, at any time (unfinished runs show
   * their state and no measurements).
   * @param format json, csv or parquet (overrides Accept)
   */
  @Get('{batchId}/results')
  @SuccessResponse(200, 'The results table', ['application/json', 'text/csv', 'application/vnd.apache.parquet'])
  public async results(@Path() batchId: string, @Query() format?: string, @Header('accept') accept?: string): Promise<unknown> {
    const chosen = negotiateTableFormat(format, accept);
    if (!chosen) throw validationError(`format must be one of ${RESULTS_TABLE_FORMATS.join(', ')}`, [{ field: 'format', message: `must be one of ${RESULTS_TABLE_FORMATS.join(', ')}` }]);
    const table = await this.services.batches.results(batchId);
    this.setHeader('Content-Type', RESULTS_TABLE_CONTENT_TYPES[chosen]);
    if (chosen !== 'json') this.setHeader('Content-Disposition', `attachment; filename="batch-${batchId}.${chosen}"`);
    return Readable.from(resultsTableChunks(table.layout, table.rows, chosen));
  }

  /** Cancels every running and pending simulation of the batch. */
  @Delete('{batchId}')
  @SuccessResponse(204, 'Cancelled')
  public cancel(@Path() batchId: string): void {
    this.services.batches.cancel(batchId);
    this.setStatus(204);
  }
}
