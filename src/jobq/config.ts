// Configuration of the job-queue service: one typed object built from the defaults, a YAML or JSON
// config file, the environment (JOBQ_API_HOST, JOBQ_API_PORT, JOBQ_API_LOG_LEVEL, JOBQ_MODELS_DIR,
// PESIM_DATA_DIR) and the command line, in that order. Every setting is checked at start-up; all
// problems are reported together, each naming its setting.
import { join, resolve } from 'node:path';
import { ConfigError, readConfigTree } from '../http/config-file.js';
import { SUPPORTED_COMPRESSIONS } from '../jobs/cache/formats/index.js';
import { COMPRESSIONS, STORAGE_FORMATS, type Compression, type StorageFormat } from '../jobs/types.js';
import { DEFAULT_MAX_STEPS } from '../jobs/step-limit.js';
import { checkSetting, SETTINGS, type SettingValue } from './settings.js';
import { checkQueueSettings, DEFAULT_MAX_RESULT_MB, type QueueBackend } from '../jobs/executors/bullmq/settings.js';

export type ApiLogLevel = 'debug' | 'info' | 'warning' | 'error';

export interface JobqConfig {
  api: {
    host: string;
    port: number;
    reload: boolean;
    log_level: ApiLogLevel;
    cors_origins: string[];
    enable_logs: boolean;
    max_body_mb: number;
    /** Bearer keys; empty: no authentication (the spec's 1.0.0 behaviour). */
    api_keys: string[];
    rate_limit: { enabled: boolean; requests_per_minute: number; authenticated_requests_per_minute: number };
  };
  orchestration: {
    max_concurrent_simulations: number;
    batch_size: number;
    retry_attempts: number;
    /** Seconds before the first retry; attempt n waits retry_delay · 2^(n−1). */
    retry_delay: number;
    queue_size: number;
    /** Seconds a run may take (0: no limit). */
    task_timeout: number;
    /** Largest simulated time / time step of a model; a model beyond it is refused (422), as the simulation service refuses it. */
    max_steps: number;
  };
  cache: {
    enabled: boolean;
    storage_format: StorageFormat;
    compression: Compression;
    ttl_seconds: number;
    include_files: boolean;
    include_parameters: boolean;
    exclude_fields: string[];
  };
  simulator: {
    /** Where runs happen; `embedded` (worker threads running the engine) is the one executor offered. */
    executor: 'embedded';
    /** `embedded`: runs on this service's worker threads; `xmlrpc`: on the simulator at host:port (PLECS dialect). */
    mode: 'embedded' | 'xmlrpc';
    host: string;
    port: number;
    timeout: number;
    /** Root under which `model_file` paths are resolved. */
    models_dir: string;
  };
  /** The service keeps its store, results and cache in `<data_dir>/jobq`. */
  data_dir: string;
  /** Where simulations run: `embedded` worker threads, or `bullmq` (Redis and `pesim worker` processes). */
  queue: QueueBackend;
  /** Redis URL for `bullmq` ('' when unset). */
  redis_url: string;
  /** Largest result a worker sends back through Redis [MiB]. */
  max_result_mb: number;
  /** A results folder shared with the workers ('' when unset): result files are written there, not sent through Redis. */
  shared_results_dir: string;
}

export { ConfigError };

/** Every problem of the configuration from `source` in one error. */
function invalidConfig(problems: string[], source: string): ConfigError {
  return new ConfigError(`Invalid job-queue configuration (${source}):\n  ${problems.join('\n  ')}`, problems);
}

export function defaultConfig(): JobqConfig {
  return {
    api: {
      host: '0.0.0.0',
      port: 8000,
      reload: false,
      log_level: 'info',
      cors_origins: ['*'],
      enable_logs: true,
      max_body_mb: 16,
      api_keys: [],
      rate_limit: { enabled: false, requests_per_minute: 100, authenticated_requests_per_minute: 1000 },
    },
    orchestration: { max_concurrent_simulations: 4, batch_size: 4, retry_attempts: 3, retry_delay: 5, queue_size: 1000, task_timeout: 3600, max_steps: DEFAULT_MAX_STEPS },
    cache: {
      enabled: true,
      storage_format: 'parquet',
      compression: 'snappy',
      ttl_seconds: 86400,
      include_files: false,
      include_parameters: true,
      exclude_fields: [],
    },
    simulator: { executor: 'embedded', mode: 'embedded', host: 'localhost', port: 1080, timeout: 300, models_dir: process.cwd() },
    data_dir: join(process.cwd(), 'data'),
    queue: 'embedded',
    redis_url: '',
    max_result_mb: DEFAULT_MAX_RESULT_MB,
    shared_results_dir: '',
  };
}

/** Reads a YAML (.yaml/.yml) or JSON config file into a plain object. */
export function readConfigFile(path: string): unknown {
  try {
    return readConfigTree(path);
  } catch (error) {
    throw invalidConfig([(error as Error).message], path);
  }
}

function setPath(target: Record<string, unknown>, path: string, value: SettingValue): void {
  const parts = path.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) node = node[part] as Record<string, unknown>;
  node[parts[parts.length - 1]] = value;
}

/** Applies a config file's object onto the config; unknown and ill-typed settings are problems. */
function applyObject(config: JobqConfig, value: unknown, problems: string[], prefix = ''): void {
  if (value === null || value === undefined) return;
  if (typeof value !== 'object' || Array.isArray(value)) {
    problems.push(`${prefix || '(top level)'}: must be a mapping of settings`);
    return;
  }
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (SETTINGS[path]) {
      const checked = checkSetting(path, item);
      if (typeof checked === 'string') problems.push(checked);
      else setPath(config as unknown as Record<string, unknown>, path, checked.value);
    } else if (Object.keys(SETTINGS).some((known) => known.startsWith(`${path}.`))) {
      applyObject(config, item, problems, path);
    } else {
      problems.push(`${path}: unknown setting (known: ${Object.keys(SETTINGS).filter((k) => k.startsWith(prefix)).join(', ')})`);
    }
  }
}

const ENVIRONMENT: Record<string, string> = {
  JOBQ_API_HOST: 'api.host',
  JOBQ_API_PORT: 'api.port',
  JOBQ_API_LOG_LEVEL: 'api.log_level',
  JOBQ_MODELS_DIR: 'simulator.models_dir',
  JOBQ_SIMULATOR_MODE: 'simulator.mode',
  JOBQ_SIMULATOR_HOST: 'simulator.host',
  JOBQ_SIMULATOR_PORT: 'simulator.port',
  PESIM_DATA_DIR: 'data_dir',
  PESIM_QUEUE: 'queue',
  PESIM_REDIS_URL: 'redis_url',
  PESIM_MAX_RESULT_MB: 'max_result_mb',
  PESIM_SHARED_RESULTS_DIR: 'shared_results_dir',
};

export interface ConfigSources {
  /** Path of a YAML/JSON config file. */
  file?: string;
  env?: NodeJS.ProcessEnv;
  /** Command-line values (strings as typed), by setting path. */
  overrides?: Record<string, string | undefined>;
}

/** Builds and checks the configuration; throws ConfigError listing every problem. */
export function loadJobqConfig(sources: ConfigSources = {}): JobqConfig {
  const config = defaultConfig();
  const problems: string[] = [];
  if (sources.file) applyObject(config, readConfigFile(sources.file), problems);
  const fromText = (path: string, raw: string, origin: string): void => {
    const checked = checkSetting(path, raw, true);
    if (typeof checked === 'string') problems.push(`${origin}: ${checked}`);
    else setPath(config as unknown as Record<string, unknown>, path, checked.value);
  };
  const env = sources.env ?? process.env;
  for (const [variable, path] of Object.entries(ENVIRONMENT)) {
    const raw = env[variable];
    if (raw !== undefined && raw !== '') fromText(path, raw, variable);
  }
  for (const [path, raw] of Object.entries(sources.overrides ?? {})) if (raw !== undefined) fromText(path, raw, `--${path.split('.').pop()}`);
  checkCombinations(config, problems);
  if (problems.length > 0) throw invalidConfig(problems, sources.file ?? 'defaults and environment');
  config.simulator.models_dir = resolve(config.simulator.models_dir);
  config.data_dir = resolve(config.data_dir);
  if (config.shared_results_dir !== '') config.shared_results_dir = resolve(config.shared_results_dir);
  return config;
}

/** Checks that concern several settings at once. */
function checkCombinations(config: JobqConfig, problems: string[]): void {
  const { storage_format: format, compression } = config.cache;
  if (STORAGE_FORMATS.includes(format) && COMPRESSIONS.includes(compression) && !SUPPORTED_COMPRESSIONS[format].includes(compression)) {
    problems.push(`cache.compression: ${format} does not support ${compression} compression; ${format} supports ${SUPPORTED_COMPRESSIONS[format].join(', ')}`);
  }
  problems.push(...checkQueueSettings({ backend: config.queue, redisUrl: config.redis_url, maxResultMb: config.max_result_mb }, { backend: 'queue', redisUrl: 'redis_url (PESIM_REDIS_URL)' }));
  if (config.api.reload) problems.push('api.reload: automatic reloading is not supported by this server; run it under a process manager (or `node --watch`) instead');
}

/** True when the host is reachable only from this machine. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

/** The start-up warning for a service reachable beyond this machine without API keys. */
export function exposureWarning(config: JobqConfig): string | undefined {
  if (isLoopback(config.api.host) || config.api.api_keys.length > 0) return undefined;
  return `listening on ${config.api.host} (beyond this machine) without API keys: anyone who can reach port ${config.api.port} can submit and cancel simulations; set api.api_keys or bind to 127.0.0.1 (--host)`;
}
