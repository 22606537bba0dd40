// Starting and stopping the simulation service: the job runtime in the data directory, the
// progress hub fed by its events, the Koa app, and the HTTP server. The returned handle is what
// `pesim serve`, the tests and the WebSocket/STOMP layer (which attaches to `server`) use.
import { existsSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino, type Logger } from 'pino';
import { createRuntime, defaultRuntimeSettings, remoteExecutorFor, type Runtime } from '../jobs/runtime.js';
import { ProgressHub } from '../simulations/progress-hub.js';
import { CircuitService } from '../circuits/CircuitService.js';
import { SimulationService } from '../simulations/SimulationService.js';
import { BatchService } from '../simulations/BatchService.js';
import { attachRealtimeDeferred } from '../realtime/deferred.js';
import type { RmiServerHandle } from '../rmi/index.js';
import { createApp } from './app.js';
import { validateConfig, defaultConfig, type SimulationServiceConfig } from './config.js';
import type { ServiceContext } from './context.js';

export interface SimulationServiceHandle {
  server: Server;
  /** Base URL, e.g. http://127.0.0.1:8080 (the actual port when 0 was asked for). */
  url: string;
  runtime: Runtime;
  hub: ProgressHub;
  services: ServiceContext;
  /** The XML-RPC remote-control endpoint (http://host:port/RPC2) when it listens. */
  rmiUrl?: string;
  /** Stops accepting connections, ends open streams, stops the runtime (queued work stays in SQLite). */
  close(): Promise<void>;
}

/** The package version, from the nearest package.json above this file (src/ and dist/src/). */
function packageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'pesim' && pkg.version) return pkg.version;
    }
    dir = dirname(dir);
  }
  return '0.0.0';
}

export interface StartOptions {
  /** A logger to use instead of a new pino logger at config.logLevel. */
  logger?: Logger;
}

/** The job runtime in the data directory, with the service's queue, cache and concurrency settings. */
async function startRuntime(full: SimulationServiceConfig): Promise<Runtime> {
  const settings = defaultRuntimeSettings(full.dataDir);
  settings.maxConcurrentSimulations = full.maxConcurrent;
  settings.scheduler.queueSize = full.queueSize;
  settings.cache.enabled = full.cacheEnabled;
  settings.queue = { backend: full.queue, redisUrl: full.redisUrl, maxResultMb: full.maxResultMb, sharedResultsDir: full.sharedResultsDir || undefined };
  return createRuntime(settings, { executor: await remoteExecutorFor(settings), deferWorkerThreads: true });
}

/** The services the controllers use, on the runtime. */
function serviceContext(full: SimulationServiceConfig, runtime: Runtime, hub: ProgressHub, logger: Logger): ServiceContext {
  const circuits = new CircuitService(runtime, { maxSteps: full.maxSteps });
  const simulations = new SimulationService(runtime, circuits, { maxSteps: full.maxSteps });
  return {
    config: full,
    runtime,
    hub,
    circuits,
    simulations,
    batches: new BatchService(runtime, simulations, full.maxBatchSize),
    logger,
    startedAt: Date.now(),
    version: packageVersion(),
    openStreams: new Set<() => void>(),
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/**
 * XML-RPC remote control (src/rmi) on its own port: the configuration `pesim serve` loads carries
 * SIM_RMI_PORT (default 1099); a partial configuration without rmiPort starts none.
 */
async function startRmi(full: SimulationServiceConfig, rmiPort: number, services: ServiceContext): Promise<RmiServerHandle | undefined> {
  if (rmiPort <= 0) return undefined;
  const rmiSettings = { host: full.host, port: rmiPort, root: full.rmiRoot, maxBodyBytes: full.rmiMaxBodyBytes };
  const { startRemoteControl } = await import('../rmi/index.js');
  return startRemoteControl({ ...rmiSettings, auth: { enabled: full.authEnabled, keys: full.apiKeys }, maxSteps: full.maxSteps, version: services.version }, services.runtime, services.logger);
}

/** The base URL clients reach the listening server at (127.0.0.1 for a server on every address). */
function baseUrl(server: Server, host: string): string {
  const { port } = server.address() as AddressInfo;
  const shown = host.includes(':') ? `[${host}]` : host;
  return `http://${shown === '0.0.0.0' ? '127.0.0.1' : shown}:${port}`;
}

interface RunningParts {
  server: Server;
  rmi: RmiServerHandle | undefined;
  realtime: { close(): Promise<void> };
  services: ServiceContext;
  runtime: Runtime;
}

/** Stops the service: open streams end, in-flight requests get 2 s, then the runtime stops. */
async function stopService({ server, rmi, realtime, services, runtime }: RunningParts): Promise<void> {
  const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
  const rmiStopped = rmi?.close();
  await realtime.close(); // upgraded WebSocket connections would otherwise keep the server open
  for (const end of [...services.openStreams]) end();
  server.closeIdleConnections();
  // In-flight requests get a moment to finish; then the remaining connections are cut.
  const grace = setTimeout(() => server.closeAllConnections(), 2000);
  await stopped;
  clearTimeout(grace);
  await rmiStopped;
  services.hub.close();
  await runtime.close();
  services.logger.info('simulation service stopped');
}

export async function startSimulationService(
  config: Partial<SimulationServiceConfig> = {},
  options: StartOptions = {},
): Promise<SimulationServiceHandle> {
  const full = validateConfig({ ...defaultConfig(), ...config });
  const logger = options.logger ?? pino({ level: full.logLevel, base: { service: 'simulation' } });
  const runtime = await startRuntime(full);
  const hub = new ProgressHub(runtime.events, (id) => runtime.scheduler.get(id));
  const services = serviceContext(full, runtime, hub, logger);
  const { app, preload } = createApp(services);
  const server = createServer(app.callback());
  // STOMP on /ws-raw and SockJS /ws (src/realtime), attached after the app's request handler so
  // SockJS passes every other path on to it. Their modules load once the server listens (below).
  const realtime = attachRealtimeDeferred(server, {
    hub,
    lookup: (id) => services.simulations.task(id),
    auth: { enabled: full.authEnabled, keys: full.apiKeys },
    log: logger,
  });
  let rmi: RmiServerHandle | undefined;
  try {
    await listen(server, full.port, full.host);
    rmi = await startRmi(full, config.rmiPort ?? 0, services);
  } catch (error) {
    if (server.listening) server.close();
    await realtime.close();
    hub.close();
    await runtime.close();
    throw error;
  }
  const url = baseUrl(server, full.host);
  logger.info({ host: full.host, port: (server.address() as AddressInfo).port, dataDir: full.dataDir, auth: full.authEnabled, rmiPort: rmi?.port ?? 0 }, 'simulation service listening');
  let closing: Promise<void> | undefined;
  // The simulation threads start, and what the service loads on first use (body parser, STOMP
  // endpoints) loads, now that it listens: none of them delays the start, nor the first request
  // that needs them.
  setImmediate(() => {
    if (closing) return;
    runtime.executor.startThreads?.();
    runtime.checks.start();
    Promise.all([preload(), realtime.load()]).catch((error: unknown) => logger.warn({ err: error }, 'preloading the body parser or the STOMP endpoints failed'));
  });
  const close = (): Promise<void> => (closing ??= stopService({ server, rmi, realtime, services, runtime }));
  return { server, url, runtime, hub, services, rmiUrl: rmi?.url, close };
}
