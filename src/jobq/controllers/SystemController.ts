// Routes of spec §4 about the service itself: health, orchestrator statistics and recent logs.
import { Controller, Get, Query, Response, Route, Tags } from '@tsoa/runtime';
import { RequestValidationError } from '../errors.js';
import type { ErrorResponse, HealthResponse, HTTPValidationError, LogLevelName, LogsResponse, StatsResponse } from '../models.js';
import type { JobqService } from '../service.js';
import { presentHealth, presentLogs, presentStats } from '../SystemPresenter.js';

const LEVELS: readonly LogLevelName[] = ['DEBUG', 'INFO', 'WARNING', 'ERROR'];

@Route('')
@Tags('System')
export class SystemController extends Controller {
  constructor(private readonly service: JobqService) {
    super();
  }

  /** `version` is the interface version (1.0.0); `simulator_connected` whether runs can start. */
  @Get('health')
  public async getHealth(): Promise<HealthResponse> {
    return presentHealth(await this.service.health());
  }

  @Get('stats')
  public async getStats(): Promise<StatsResponse> {
    return presentStats(this.service.stats());
  }

  /**
   * Recent log entries, newest first.
   * @param limit at most this many (1 to 1000)
   * @isInt limit limit must be an integer from 1 to 1000
   * @minimum limit 1
   * @maximum limit 1000
   * @param level DEBUG, INFO, WARNING or ERROR (any case): that level and above
   */
  @Get('logs')
  @Response<HTTPValidationError>(422, 'limit or level out of range')
  @Response<ErrorResponse>(404, 'Log access is disabled (api.enable_logs: false)')
  public async getLogs(@Query() limit = 100, @Query() level?: string): Promise<LogsResponse> {
    const wanted = level?.toUpperCase();
    if (wanted !== undefined && !LEVELS.includes(wanted as LogLevelName)) {
      throw new RequestValidationError([{ loc: ['query', 'level'], msg: `Input should be ${LEVELS.join(', ')}`, type: 'enum' }]);
    }
    return presentLogs(this.service.logs(limit, wanted as LogLevelName | undefined));
  }
}
