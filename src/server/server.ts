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

export async function startSimulationService(
  config: Partial<SimulationServiceConfig> = {},
  options: StartOptions = {},
): Promise<SimulationServiceHandle> {
  const full = validateConfig({ ...defaultConfig(), ...config });
  const logger = options.logger ?? pino({ level: full.logLevel, base: { service: 'simulation' } });
  const settings = defaultRuntimeSettings(full.dataDir);
  settings.maxConcurrentSimulations = full.maxConcurrent;
  settings.scheduler.queueSize = full.queueSize;
  settings.cache.enabled = full.cacheEnabled;
  settings.queue = { backend: full.queue, redisUrl: full.redisUrl, maxResultMb: full.maxResultMb };
  const runtime = createRuntime(settings, { executor: await remoteExecutorFor(settings), deferWorkerThreads: true });
  const hub = new ProgressHub(runtime.events, (id) => runtime.scheduler.get(id));
  const streams = new Set<() => void>();
  const circuits = new CircuitService(runtime, { maxSteps: full.maxSteps });
  const simulations = new SimulationService(runtime, circuits, { maxSteps: full.maxSteps });
  const services: ServiceContext = {
    config: full,
    runtime,
    hub,
    circuits,
    simulations,
    batches: new BatchService(runtime, simulations, full.maxBatchSize),
    logger,
    startedAt: Date.now(),
    version: packageVersion(),
    openStreams: streams,
  };
  const { app, preload } = createApp(services);
  const server = createServer(app.callback());
  // STOMP on /ws-raw and SockJS /ws (src/realtime), attached after the app's request handler so
  // SockJS passes every other path on to it. Their modules load once the server listens (below).
  const realtime = attachRealtimeDeferred(server, {
    hub,
    lookup: (id) => simulations.task(id),
    auth: { enabled: full.authEnabled, keys: full.apiKeys },
    log: logger,
  });
  // XML-RPC remote control (src/rmi) on its own port: the configuration `pesim serve` loads carries
  // SIM_RMI_PORT (default 1099); a partial configuration without rmiPort starts none.
  const rmiPort = config.rmiPort ?? 0;
  let rmi: RmiServerHandle | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(full.port, full.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    if (rmiPort > 0) {
      const rmiSettings = { host: full.host, port: rmiPort, root: full.rmiRoot, maxBodyBytes: full.rmiMaxBodyBytes };
      const { startRemoteControl } = await import('../rmi/index.js');
      rmi = await startRemoteControl({ ...rmiSettings, auth: { enabled: full.authEnabled, keys: full.apiKeys }, maxSteps: full.maxSteps, version: services.version }, runtime, logger);
    }
  } catch (error) {
    if (server.listening) server.close();
    await realtime.close();
    hub.close();
    await runtime.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  const host = full.host.includes(':') ? `[${full.host}]` : full.host;
  const url = `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
  logger.info({ host: full.host, port, dataDir: full.dataDir, auth: full.authEnabled, rmiPort: rmi?.port ?? 0 }, 'simulation service listening');
  // The simulation threads start, and what the service loads on first use (body parser, STOMP
  // endpoints) loads, now that it listens: none of them delays the start, nor the first request
  // that needs them.
  setImmediate(() => {
    if (closing) return;
    runtime.executor.startThreads?.();
    Promise.all([preload(), realtime.load()]).catch((error: unknown) => logger.warn({ err: error }, 'preloading the body parser or the STOMP endpoints failed'));
  });

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      const rmiStopped = rmi?.close();
      await realtime.close(); // upgraded WebSocket connections would otherwise keep the server open
      for (const end of [...streams]) end();
      server.closeIdleConnections();
      // In-flight requests get a moment to finish; then the remaining connections are cut.
      const grace = setTimeout(() => server.closeAllConnections(), 2000);
      await stopped;
      clearTimeout(grace);
      await rmiStopped;
      hub.close();
      await runtime.close();
      logger.info('simulation service stopped');
    })();
    return closing;
  };
  return { server, url, runtime, hub, services, rmiUrl: rmi?.url, close };
}
