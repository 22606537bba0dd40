// HTTP interface of simulations (/api/v1/simulations): submit, list, status with results, pause,
// resume, cancel, progress, export, the SSE progress stream and WebSocket discovery. Thin: the
// service applies the rules, the presenter shapes the bodies, src/http/sse.ts writes the stream.
import type { Request as KoaRequest } from 'koa';
import type { Readable } from 'node:stream';
import { join } from 'node:path';
import {
  Body, Controller, Delete, Example, Get, Header, Path, Post, Produces, Query, Request, Response, Route, Security, SuccessResponse, Tags,
} from '@tsoa/runtime';
import type { ErrorBody } from '../http/error-body.js';
import { validationError } from '../http/errors.js';
import { paging } from '../http/paging.js';
import { openEventStream, parseLastEventId, type SequencedSource } from '../http/sse.js';
import type { SimulationService } from './SimulationService.js';
import { FINAL_STATES, type TaskState } from '../jobs/types.js';
import { exportResult, type ExportFormat } from './export.js';
import type { SimulationRequest } from './SimulationRequest.js';
import {
  presentProgress, presentSubmission, presentSummary,
  type ProgressDetails, type SimulationList, type SimulationState, type SimulationStatus, type StateChange, type SubmissionResponse,
} from './SimulationPresenter.js';

export interface WebSocketInfo {
  simulationId: string;
  /** SockJS (browser) endpoint. */
  stompEndpoint: string;
  /** Plain WebSocket endpoint. */
  rawWebSocketEndpoint: string;
  /** STOMP destination to SUBSCRIBE to. */
  subscribeDestination: string;
  protocol: string;
  supportsBidirectional: boolean;
  baseUrl: string;
}

const STATES: readonly SimulationState[] = ['queued', 'running', 'paused', 'completed', 'failed', 'cancelled'];

/** What the simulation endpoints need of the service. */
export interface SimulationDeps {
  simulations: SimulationService;
  /** Progress messages in sequence, for the event stream. */
  hub: SequencedSource;
  /** Enders of open event streams, called when the service closes. */
  openStreams: Set<() => void>;
  /** The data folder (temporary export files) and the event stream's heart-beat. */
  config: { dataDir: string; sseHeartbeatSeconds: number };
}

@Route('api/v1/simulations')
@Tags('simulations')
@Security('api_key')
@Response<ErrorBody>(400, 'Invalid request', { error: 'VALIDATION_ERROR', message: 'Invalid request: parameters.R.9.R no such component', details: [{ field: 'parameters.R.9.R', message: 'no such component' }], path: '/api/v1/simulations', timestamp: '2025-01-01T12:00:00.000Z' })
@Response<ErrorBody>(401, 'API key missing or invalid (when sim.api.auth-enabled)', { error: 'UNAUTHORIZED', message: 'This endpoint needs an API key in the X-API-Key header', path: '/api/v1/simulations', timestamp: '2025-01-01T12:00:00.000Z' })
@Response<ErrorBody>(404, 'Unknown simulation or circuit', { error: 'SIMULATION_NOT_FOUND', message: 'No simulation 3d2f8a61-5c4b-4e0f-8a7d-9b1c2e3f4a5b', path: '/api/v1/simulations/3d2f8a61-5c4b-4e0f-8a7d-9b1c2e3f4a5b', timestamp: '2025-01-01T12:00:00.000Z' })
@Response<ErrorBody>(409, 'Not allowed in the current state', { error: 'INVALID_STATE', message: 'Cannot pause simulation 3d2f8a61-5c4b-4e0f-8a7d-9b1c2e3f4a5b: it is completed', path: '/api/v1/simulations/3d2f8a61-5c4b-4e0f-8a7d-9b1c2e3f4a5b/pause', timestamp: '2025-01-01T12:00:00.000Z' })
@Response<ErrorBody>(415, 'A request body that is not application/json (multipart/form-data for uploads)', { error: 'UNSUPPORTED_MEDIA_TYPE', message: 'The request body has the Content-Type text/plain, which this service does not read: send application/json (multipart/form-data for file uploads)', details: [{ field: 'Content-Type', message: 'must be application/json (multipart/form-data for file uploads)' }], path: '/api/v1/simulations', timestamp: '2025-01-01T12:00:00.000Z' })
@Response<ErrorBody>(500, 'Internal error')
@Response<ErrorBody>(507, 'The data directory is full: nothing new is stored until space is freed (reads go on; /actuator/health shows the store DEGRADED)', { error: 'STORAGE_FULL', message: 'The data directory /var/lib/pesim is full: nothing new can be stored until space is freed there (database or disk is full); stored simulations and results can still be read', path: '/api/v1/simulations', timestamp: '2025-01-01T12:00:00.000Z' })
export class SimulationController extends Controller {
  constructor(private readonly services: SimulationDeps) {
    super();
  }

  /**
   * Queues a simulation. `circuitFile` is base64 file content or the circuitId of a loaded circuit;
   * the other fields override the circuit's settings. A result-cache hit completes at once
   * (`cacheHit: true`).
   */
  @Post()
  @SuccessResponse(202, 'Accepted; Location names the new simulation')
  @Example<SubmissionResponse>({ simulationId: '3d2f8a61-5c4b-4e0f-8a7d-9b1c2e3f4a5b', status: 'queued', batchId: null, cacheHit: false })
  @Response<ErrorBody>(413, 'Body larger than sim.api.max-body-size')
  @Response<ErrorBody>(422, 'Circuit invalid, or too many steps', { error: 'SIMULATION_TOO_LARGE', message: '1.000e+9 steps (simulationTime / timeStep) exceed the limit of 50000000', details: [{ field: 'timeStep', message: 'gives 1000000000 steps, more than 50000000' }], path: '/api/v1/simulations', timestamp: '2025-01-01T12:00:00.000Z' })
  @Response<ErrorBody>(503, 'Queue full; retry after Retry-After seconds', { error: 'QUEUE_FULL', message: 'The queue is full (100000 unfinished tasks); retry in about 5 s', path: '/api/v1/simulations', timestamp: '2025-01-01T12:00:00.000Z' })
  public async submit(@Body() body: SimulationRequest): Promise<SubmissionResponse> {
    const task = await this.services.simulations.submit(body);
    this.setStatus(202);
    this.setHeader('Location', `/api/v1/simulations/${task.id}`);
    return presentSubmission(task);
  }

  /**
   * Simulations of this service, newest first.
   * @param status comma-separated states (queued, running, paused, completed, failed, cancelled)
   * @param batchId only the simulations of this batch
   * @param limit page size (1–1000, default 100)
   * @param offset simulations to skip
   */
  @Get()
  @Example<SimulationList>({ simulations: [{ simulationId: '3d2f8a61-5c4b-4e0f-8a7d-9b1c2e3f4a5b', status: 'running', progress: 42.5, circuitName: 'buck', batchId: null, submittedAt: '2025-01-01T12:00:00.000Z', startedAt: '2025-01-01T12:00:00.050Z', completedAt: null }], total: 1 })
  public list(@Query() status?: string, @Query() batchId?: string, @Query() limit?: number, @Query() offset?: number): SimulationList {
    const page = paging(limit, offset);
    let states: TaskState[] | undefined;
    if (status !== undefined) {
      states = status.split(',').map((s) => s.trim().toLowerCase()) as TaskState[];
      const bad = states.find((s) => !STATES.includes(s));
      if (bad !== undefined) throw validationError(`status: unknown state "${bad}"; states are ${STATES.join(', ')}`, [{ field: 'status', message: `must be among ${STATES.join(', ')}` }]);
    }
    const { tasks, total } = this.services.simulations.list({ states, batchId, ...page });
    return { simulations: tasks.map(presentSummary), total };
  }

  /** State, progress, timings, the request, and once completed the measurements. */
  @Get('{simulationId}')
  @Example<SimulationStatus>({
    simulationId: '3d2f8a61-5c4b-4e0f-8a7d-9b1c2e3f4a5b', status: 'completed', priority: 'NORMAL',
    progress: { preCalcProgress: 100, mainSimProgress: 100, currentStep: 200000, totalSteps: 200000, estimatedRemainingMs: 0 },
    circuitName: 'buck', batchId: null, submittedAt: '2025-01-01T12:00:00.000Z', startedAt: '2025-01-01T12:00:00.010Z', completedAt: '2025-01-01T12:00:00.060Z',
    durationMs: 41.7, cacheHit: false,
    request: { circuitFile: '6f1c2a9e-3b0d-4a51-9c1e-2f4b8d7a0c13', circuitName: 'buck', parameters: { 'R.1.R': 5 } },
    results: { measurements: { 'SCOPE.1.ch1_avg': 23.61, 'SCOPE.1.ch1_rms': 23.62, 'SCOPE.1.ch1_min': 23.4, 'SCOPE.1.ch1_max': 23.8 }, signals: ['SCOPE.1.ch1', 'SCOPE.1.ch2'], labels: { 'SCOPE.1.ch1': 'u2', 'SCOPE.1.ch2': 'iL' } },
    errorMessage: null,
  })
  public status(@Path() simulationId: string): Promise<SimulationStatus> {
    return this.services.simulations.status(simulationId);
  }

  /** Cancels a queued, running or paused simulation. */
  @Delete('{simulationId}')
  @Example<StateChange>({ simulationId: '3d2f8a61-5c4b-4e0f-8a7d-9b1c2e3f4a5b', status: 'cancelled' })
  public cancel(@Path() simulationId: string): StateChange {
    const task = this.services.simulations.cancel(simulationId);
    return { simulationId: task.id, status: task.state };
  }

  /** Pauses a running simulation between two steps (its state is kept). */
  @Post('{simulationId}/pause')
  @Example<StateChange>({ simulationId: '3d2f8a61-5c4b-4e0f-8a7d-9b1c2e3f4a5b', status: 'paused' })
  public pause(@Path() simulationId: string): StateChange {
    const task = this.services.simulations.pause(simulationId);
    return { simulationId: task.id, status: task.state };
  }

  /** Resumes a paused simulation from the step where it stopped. */
  @Post('{simulationId}/resume')
  @Example<StateChange>({ simulationId: '3d2f8a61-5c4b-4e0f-8a7d-9b1c2e3f4a5b', status: 'running' })
  public resume(@Path() simulationId: string): StateChange {
    const task = this.services.simulations.resume(simulationId);
    return { simulationId: task.id, status: task.state };
  }

  /** Progress details (docs/spec/simulation-service.md §2.3). */
  @Get('{simulationId}/progress')
  @Example<ProgressDetails>({ preCalcProgress: 100, mainSimProgress: 42.5, currentStep: 85000, totalSteps: 200000, estimatedRemainingMs: 1350 })
  public progress(@Path() simulationId: string): ProgressDetails {
    const task = this.services.simulations.task(simulationId);
    return presentProgress(task, this.services.simulations.progress(simulationId));
  }

  /**
   * The waveforms of a completed simulation as CSV (`time,<signal>,...`), JSON
   * (`{time: [], signals: {name: []}}`) or Parquet, streamed.
   * @param format csv (default), json or parquet
   * @param signals comma-separated signal names (default: all recorded)
   * @param start first time [s] (default: the start)
   * @param end last time [s] (default: the end)
   * @param maxPoints at most this many rows, by a fixed stride
   */
  @Get('{simulationId}/export')
  @SuccessResponse(200, 'The exported waveforms', ['text/csv', 'application/json', 'application/vnd.apache.parquet'])
  public async export(
    @Path() simulationId: string,
    @Query() format?: 'csv' | 'json' | 'parquet',
    @Query() signals?: string,
    @Query() start?: number,
    @Query() end?: number,
    @Query() maxPoints?: number,
  ): Promise<unknown> {
    const result = await this.services.simulations.result(simulationId);
    const chosen: ExportFormat = format ?? 'csv';
    const names = signals?.split(',').map((s) => s.trim()).filter((s) => s !== '');
    const body = await exportResult(result, { format: chosen, signals: names, start, end, maxPoints }, join(this.services.config.dataDir, 'tmp'));
    this.setHeader('Content-Type', body.contentType);
    this.setHeader('Content-Disposition', `attachment; filename="${simulationId}.${body.extension}"`);
    return body.stream as Readable;
  }

  /**
   * Server-sent events: one progress message (docs/spec/simulation-service.md §2.4) per update, `id:` its
   * sequence number, the final message, then the end of the stream; `: heartbeat` comments in
   * between. Send `Last-Event-ID` (or `?lastEventId=`) to resume; 204 when the run had already
   * finished and everything was delivered.
   * @param lastEventId alternative to the Last-Event-ID header
   */
  @Get('{simulationId}/stream')
  @Produces('text/event-stream')
  @SuccessResponse(200, 'text/event-stream of progress messages', 'text/event-stream')
  @Response<void>(204, 'Already finished and delivered: stop reconnecting')
  public stream(
    @Path() simulationId: string,
    @Request() request: KoaRequest,
    @Header('last-event-id') lastEventIdHeader?: string,
    @Query() lastEventId?: string,
  ): string | undefined {
    this.services.simulations.task(simulationId);
    const stream = openEventStream(request.ctx, {
      source: this.services.hub,
      streamId: simulationId,
      lastEventId: parseLastEventId(lastEventIdHeader ?? lastEventId),
      finished: () => FINAL_STATES.includes(this.services.simulations.task(simulationId).state),
      heartbeatMs: this.services.config.sseHeartbeatSeconds * 1000,
      openStreams: this.services.openStreams,
    });
    if (!stream) {
      this.setStatus(204);
      return undefined;
    }
    // The body is the event stream (typed as text for the OpenAPI description).
    return stream as unknown as string;
  }

  /** Where to subscribe to the same progress messages over STOMP (docs/spec/simulation-service.md §2.8). */
  @Get('{simulationId}/ws-info')
  @Example<WebSocketInfo>({ simulationId: '3d2f8a61-5c4b-4e0f-8a7d-9b1c2e3f4a5b', stompEndpoint: '/ws', rawWebSocketEndpoint: '/ws-raw', subscribeDestination: '/topic/simulations/3d2f8a61-5c4b-4e0f-8a7d-9b1c2e3f4a5b', protocol: 'STOMP/1.2', supportsBidirectional: false, baseUrl: 'http://127.0.0.1:8080' })
  public wsInfo(@Path() simulationId: string, @Request() request: KoaRequest): WebSocketInfo {
    this.services.simulations.task(simulationId);
    return {
      simulationId,
      stompEndpoint: '/ws',
      rawWebSocketEndpoint: '/ws-raw',
      subscribeDestination: `/topic/simulations/${simulationId}`,
      protocol: 'STOMP/1.2',
      supportsBidirectional: false,
      baseUrl: `${request.protocol}://${request.host}`,
    };
  }
}
