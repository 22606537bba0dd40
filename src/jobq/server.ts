// Starting and stopping the job-queue service: the job runtime (store, cache, executor, scheduler)
// in <data_dir>/jobq, the service, the Koa app and the WebSocket on one http.Server.
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { pino, type Logger } from 'pino';
import { engineInfo } from '../engine/index.js';
import { createRuntime, defaultRuntimeSettings, remoteExecutorFor, type Runtime, type RuntimeOptions, type RuntimeSettings } from '../jobs/runtime.js';
import { XmlRpcExecutor } from '../jobs/executors/xmlrpc.js';
import { ApiKeys } from './access.js';
import { createJobqApp } from './app.js';
import { exposureWarning, type JobqConfig } from './config.js';
import { JobqService } from './service.js';
import { TaskUpdatesSocket } from './websocket.js';

export interface JobqServer {
  server: Server;
  runtime: Runtime;
  service: JobqService;
  /** http://host:port of the bound address. */
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface JobqStartOptions extends RuntimeOptions {
  logger?: Logger;
}

export function runtimeSettings(config: JobqConfig): RuntimeSettings {
  const settings = defaultRuntimeSettings(join(config.data_dir, 'jobq'));
  const { orchestration: o, cache: c } = config;
  settings.maxConcurrentSimulations = o.max_concurrent_simulations;
  settings.scheduler = {
    ...settings.scheduler,
    queueSize: o.queue_size,
    taskTimeoutMs: o.task_timeout * 1000,
    retryAttempts: o.retry_attempts,
    retryDelayMs: o.retry_delay * 1000,
    batchSize: o.batch_size,
    resultFormat: c.storage_format,
    resultCompression: c.compression,
  };
  settings.cache = {
    enabled: c.enabled,
    format: c.storage_format,
    compression: c.compression,
    ttlSeconds: c.ttl_seconds,
    includeFiles: c.include_files,
    includeParameters: c.include_parameters,
    excludeFields: c.exclude_fields,
  };
  settings.queue = { backend: config.queue, redisUrl: config.redis_url, maxResultMb: config.max_result_mb, sharedResultsDir: config.shared_results_dir || undefined };
  return settings;
}

const PINO_LEVELS: Record<JobqConfig['api']['log_level'], string> = { debug: 'debug', info: 'info', warning: 'warn', error: 'error' };

export async function startJobq(config: JobqConfig, options: JobqStartOptions = {}): Promise<JobqServer> {
  const logger = options.logger ?? pino({ name: 'pesim-jobq', level: PINO_LEVELS[config.api.log_level] });
  const { simulator } = config;
  const executor = options.executor ?? (simulator.mode === 'xmlrpc'
    ? new XmlRpcExecutor({ host: simulator.host, port: simulator.port, timeoutSeconds: simulator.timeout, modelsDir: simulator.models_dir, capacity: config.orchestration.max_concurrent_simulations })
    : undefined);
  const settings = runtimeSettings(config);
  const runtime = createRuntime(settings, { ...options, executor: executor ?? (await remoteExecutorFor(settings)) });
  const service = new JobqService(runtime, config, `pesim ${engineInfo().version}`);
  const keys = new ApiKeys(config.api.api_keys);
  const app = createJobqApp(service, keys, logger);
  const server = createServer(app.callback());
  const socket = new TaskUpdatesSocket(server, runtime.events, (id) => runtime.task(id), keys);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.api.port, config.api.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    socket.close();
    service.close();
    await runtime.close();
    throw error;
  }
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.api.port;
  const host = config.api.host.includes(':') ? `[${config.api.host}]` : config.api.host;
  // The circuit-check thread of large batches loads the engine now, not in the first batch's request.
  runtime.checks.start();
  const warning = exposureWarning(config);
  if (warning) logger.warn(warning);
  let closing: Promise<void> | undefined;
  return {
    server,
    runtime,
    service,
    url: `http://${host}:${port}`,
    port,
    close() {
      closing ??= (async () => {
        socket.close();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        service.close();
        await runtime.close();
      })();
      return closing;
    },
  };
}
