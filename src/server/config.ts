// The simulation service's configuration: one typed object built from defaults, then an optional
// config file (`--config` / SIM_CONFIG: Spring-style `.properties` or YAML with `sim.api.*` keys,
// docs/spec/simulation-service.md §5), then environment variables, then explicit overrides (command-line
// flags, tests), validated at start-up with messages naming the setting at fault.
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { ConfigError, readFlatConfigFile } from '../http/config-file.js';
import { DEFAULT_MAX_STEPS } from '../jobs/step-limit.js';
import { checkQueueSettings, DEFAULT_MAX_RESULT_MB, QUEUE_BACKENDS, type QueueBackend } from '../jobs/executors/bullmq/settings.js';

export interface SimulationServiceConfig {
  port: number;
  host: string;
  /** Directory of the SQLite store, results and cache. */
  dataDir: string;
  authEnabled: boolean;
  apiKeys: string[];
  /** Largest accepted request body [bytes]. */
  maxBodyBytes: number;
  /** Largest simulationTime / timeStep accepted. */
  maxSteps: number;
  /** Most simulations in one batch. */
  maxBatchSize: number;
  /** Unfinished simulations (queued, running, paused) accepted at most; beyond: 503 QUEUE_FULL. */
  queueSize: number;
  /** Simulations run at once (worker threads). */
  maxConcurrent: number;
  /** Result cache on or off. */
  cacheEnabled: boolean;
  /** Seconds between SSE heart-beat comments. */
  sseHeartbeatSeconds: number;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** XML-RPC remote-control port on the same host (0: off). */
  rmiPort: number;
  /** Folder the remote-control paths must stay in. */
  rmiRoot: string;
  /** Largest accepted XML-RPC request body [bytes]. */
  rmiMaxBodyBytes: number;
  /** Where simulations run: `embedded` worker threads, or `bullmq` (Redis and `pesim worker` processes). */
  queue: QueueBackend;
  /** Redis URL for `bullmq` ('' when unset). */
  redisUrl: string;
  /** Largest result a worker sends back through Redis [MiB]. */
  maxResultMb: number;
  /** A results folder shared with the workers ('' when unset): result files are written there, not sent through Redis. */
  sharedResultsDir: string;
}

export { ConfigError };

interface Setting {
  key: keyof SimulationServiceConfig;
  property: string;
  env: string;
  parse: (raw: string, where: string) => SimulationServiceConfig[keyof SimulationServiceConfig];
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function integer(min: number, max: number) {
  return (raw: string, where: string): number => {
    const value = Number(raw.trim());
    if (!Number.isInteger(value) || value < min || value > max) throw new ConfigError(`${where} must be an integer from ${min} to ${max}, got "${raw}"`);
    return value;
  };
}

function bool(raw: string, where: string): boolean {
  const v = raw.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(v)) return true;
  if (['false', '0', 'no', 'off', ''].includes(v)) return false;
  throw new ConfigError(`${where} must be true or false, got "${raw}"`);
}

const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, kb: 1e3, mb: 1e6, gb: 1e9, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3 };

/** A byte size: `52428800`, `50MiB`, `50MB`, `512kb`. */
export function parseSize(raw: string, where: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]*)\s*$/.exec(raw);
  const unit = match ? SIZE_UNITS[match[2].toLowerCase()] : undefined;
  if (!match || unit === undefined) throw new ConfigError(`${where} must be a size such as 52428800, 50MiB or 512KB, got "${raw}"`);
  const bytes = Math.floor(Number(match[1]) * unit);
  if (bytes < 1024) throw new ConfigError(`${where} must be at least 1 KiB, got "${raw}"`);
  return bytes;
}

const SETTINGS: Setting[] = [
  { key: 'port', property: 'sim.api.port', env: 'SIM_PORT', parse: integer(0, 65535) },
  { key: 'host', property: 'sim.api.host', env: 'SIM_HOST', parse: (raw, where) => nonEmpty(raw, where) },
  { key: 'dataDir', property: 'sim.api.data-dir', env: 'PESIM_DATA_DIR', parse: (raw, where) => nonEmpty(raw, where) },
  { key: 'authEnabled', property: 'sim.api.auth-enabled', env: 'SIM_API_AUTH_ENABLED', parse: bool },
  { key: 'apiKeys', property: 'sim.api.keys', env: 'SIM_API_KEYS', parse: (raw) => raw.split(',').map((k) => k.trim()).filter((k) => k !== '') },
  { key: 'maxBodyBytes', property: 'sim.api.max-body-size', env: 'SIM_MAX_BODY_SIZE', parse: parseSize },
  { key: 'maxSteps', property: 'sim.api.max-steps', env: 'SIM_MAX_STEPS', parse: (raw, where) => positiveNumber(raw, where) },
  { key: 'maxBatchSize', property: 'sim.api.max-batch-size', env: 'SIM_MAX_BATCH_SIZE', parse: integer(1, 10_000_000) },
  { key: 'queueSize', property: 'sim.api.queue-size', env: 'SIM_QUEUE_SIZE', parse: integer(1, 100_000_000) },
  { key: 'maxConcurrent', property: 'sim.api.max-concurrent', env: 'SIM_MAX_CONCURRENT', parse: integer(1, 1024) },
  { key: 'cacheEnabled', property: 'sim.api.cache-enabled', env: 'SIM_CACHE_ENABLED', parse: bool },
  { key: 'sseHeartbeatSeconds', property: 'sim.api.sse-heartbeat-seconds', env: 'SIM_SSE_HEARTBEAT_SECONDS', parse: integer(1, 3600) },
  { key: 'rmiPort', property: 'sim.api.rmi-port', env: 'SIM_RMI_PORT', parse: integer(0, 65535) },
  { key: 'rmiRoot', property: 'sim.api.rmi-root', env: 'SIM_RMI_ROOT', parse: (raw, where) => nonEmpty(raw, where) },
  { key: 'rmiMaxBodyBytes', property: 'sim.api.rmi-max-body-size', env: 'SIM_RMI_MAX_BODY_SIZE', parse: parseSize },
  {
    key: 'logLevel', property: 'sim.api.log-level', env: 'SIM_LOG_LEVEL',
    parse: (raw, where) => {
      const v = raw.trim().toLowerCase();
      if (!(LOG_LEVELS as readonly string[]).includes(v)) throw new ConfigError(`${where} must be one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
      return v as SimulationServiceConfig['logLevel'];
    },
  },
  {
    key: 'queue', property: 'sim.api.queue', env: 'PESIM_QUEUE',
    parse: (raw, where) => {
      const v = raw.trim();
      if (!(QUEUE_BACKENDS as readonly string[]).includes(v)) throw new ConfigError(`${where} must be one of ${QUEUE_BACKENDS.join(', ')}, got "${raw}"`);
      return v as QueueBackend;
    },
  },
  { key: 'redisUrl', property: 'sim.api.redis-url', env: 'PESIM_REDIS_URL', parse: (raw) => raw.trim() },
  { key: 'maxResultMb', property: 'sim.api.max-result-mb', env: 'PESIM_MAX_RESULT_MB', parse: (raw, where) => positiveNumber(raw, where) },
  { key: 'sharedResultsDir', property: 'sim.api.shared-results-dir', env: 'PESIM_SHARED_RESULTS_DIR', parse: (raw) => (raw.trim() === '' ? '' : resolve(raw.trim())) },
];

/** Every setting with its property and environment variable (for the documentation and --help). */
export const CONFIG_KEYS: readonly { key: string; property: string; env: string }[] = SETTINGS.map(({ key, property, env }) => ({ key, property, env }));

function nonEmpty(raw: string, where: string): string {
  if (raw.trim() === '') throw new ConfigError(`${where} must not be empty`);
  return raw.trim();
}

function positiveNumber(raw: string, where: string): number {
  const value = Number(raw.trim());
  if (!Number.isFinite(value) || value <= 0) throw new ConfigError(`${where} must be a positive number, got "${raw}"`);
  return value;
}

export function defaultConfig(): SimulationServiceConfig {
  return {
    port: 8080,
    host: '127.0.0.1',
    dataDir: join(process.cwd(), 'data'),
    authEnabled: false,
    apiKeys: [],
    maxBodyBytes: 50 * 1024 * 1024,
    maxSteps: DEFAULT_MAX_STEPS,
    maxBatchSize: 100_000,
    queueSize: 100_000,
    maxConcurrent: availableParallelism(),
    cacheEnabled: true,
    sseHeartbeatSeconds: 15,
    logLevel: 'info',
    rmiPort: 1099,
    rmiRoot: process.cwd(),
    rmiMaxBodyBytes: 64 * 1024 * 1024,
    queue: 'embedded',
    redisUrl: '',
    maxResultMb: DEFAULT_MAX_RESULT_MB,
    sharedResultsDir: '',
  };
}

export interface LoadConfigOptions {
  /** Config file path (else SIM_CONFIG). */
  configFile?: string;
  env?: NodeJS.ProcessEnv;
  /** Final values (command-line flags, tests). */
  overrides?: Partial<SimulationServiceConfig>;
}

/** Defaults → config file → environment → overrides, validated. Throws ConfigError. */
export function loadSimulationServiceConfig(options: LoadConfigOptions = {}): SimulationServiceConfig {
  const env = options.env ?? process.env;
  const config = defaultConfig() as unknown as Record<string, unknown>;
  const file = options.configFile ?? (env.SIM_CONFIG || undefined);
  if (file) {
    const properties = readFlatConfigFile(file);
    const known = new Set(SETTINGS.map((s) => s.property));
    for (const property of Object.keys(properties)) {
      if (property.startsWith('sim.api.') && !known.has(property)) {
        throw new ConfigError(`${file}: unknown setting ${property}; known: ${[...known].join(', ')}`);
      }
    }
    for (const s of SETTINGS) {
      const raw = properties[s.property];
      if (raw !== undefined) config[s.key] = s.parse(raw, `${s.property} (${file})`);
    }
  }
  for (const s of SETTINGS) {
    const raw = env[s.env];
    if (raw !== undefined && raw !== '') config[s.key] = s.parse(raw, `environment variable ${s.env}`);
  }
  return validateConfig({ ...(config as unknown as SimulationServiceConfig), ...options.overrides });
}

/** Cross-field checks of a complete configuration. */
export function validateConfig(config: SimulationServiceConfig): SimulationServiceConfig {
  if (config.authEnabled && config.apiKeys.length === 0) {
    throw new ConfigError('API-key authentication is enabled (sim.api.auth-enabled / SIM_API_AUTH_ENABLED) but no key is configured: set sim.api.keys or SIM_API_KEYS');
  }
  if (!Number.isInteger(config.port) || config.port < 0 || config.port > 65535) throw new ConfigError(`port must be an integer from 0 to 65535, got ${config.port}`);
  if (!(config.maxSteps > 0)) throw new ConfigError(`sim.api.max-steps must be positive, got ${config.maxSteps}`);
  const queueProblems = checkQueueSettings({ backend: config.queue, redisUrl: config.redisUrl, maxResultMb: config.maxResultMb }, { backend: 'sim.api.queue (PESIM_QUEUE)', redisUrl: 'sim.api.redis-url (PESIM_REDIS_URL)' });
  if (queueProblems.length > 0) throw new ConfigError(queueProblems.join('; '));
  return config;
}
