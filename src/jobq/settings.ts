// The table of every job-queue setting: its type and allowed range, and the check that turns a
// config-file value (or an environment / command-line string) into the typed value or a message
// naming the setting and what it accepts.
import { COMPRESSIONS, STORAGE_FORMATS } from '../jobs/types.js';
import { QUEUE_BACKENDS } from '../jobs/executors/bullmq/settings.js';

export type SettingValue = string | number | boolean | string[];

type Setting =
  | { kind: 'string' }
  | { kind: 'enum'; values: readonly string[] }
  | { kind: 'integer'; min: number; max: number }
  | { kind: 'number'; min: number; max: number }
  | { kind: 'boolean' }
  | { kind: 'strings' };

const integer = (min: number, max = Number.MAX_SAFE_INTEGER): Setting => ({ kind: 'integer', min, max });
const number = (min: number, max = Number.MAX_VALUE): Setting => ({ kind: 'number', min, max });
const string: Setting = { kind: 'string' };
const boolean: Setting = { kind: 'boolean' };
const strings: Setting = { kind: 'strings' };

export const SETTINGS: Readonly<Record<string, Setting>> = {
  'api.host': string,
  'api.port': integer(0, 65535),
  'api.reload': boolean,
  'api.log_level': { kind: 'enum', values: ['debug', 'info', 'warning', 'error'] },
  'api.cors_origins': strings,
  'api.enable_logs': boolean,
  'api.max_body_mb': number(0.001, 1024),
  'api.api_keys': strings,
  'api.rate_limit.enabled': boolean,
  'api.rate_limit.requests_per_minute': integer(1),
  'api.rate_limit.authenticated_requests_per_minute': integer(1),
  'orchestration.max_concurrent_simulations': integer(1, 1024),
  'orchestration.batch_size': integer(1, 100_000),
  'orchestration.retry_attempts': integer(0, 100),
  'orchestration.retry_delay': number(0, 86_400),
  'orchestration.queue_size': integer(1, 10_000_000),
  'orchestration.task_timeout': number(0, 31_536_000),
  'orchestration.max_steps': number(1),
  'cache.enabled': boolean,
  'cache.storage_format': { kind: 'enum', values: STORAGE_FORMATS },
  'cache.compression': { kind: 'enum', values: COMPRESSIONS },
  'cache.ttl_seconds': integer(0),
  'cache.include_files': boolean,
  'cache.include_parameters': boolean,
  'cache.exclude_fields': strings,
  'simulator.executor': { kind: 'enum', values: ['embedded'] },
  'simulator.mode': { kind: 'enum', values: ['embedded', 'xmlrpc'] },
  'simulator.host': string,
  'simulator.port': integer(1, 65535),
  'simulator.timeout': number(0, 31_536_000),
  'simulator.models_dir': string,
  data_dir: string,
  queue: { kind: 'enum', values: QUEUE_BACKENDS },
  redis_url: string,
  max_result_mb: number(0.001, 400),
  shared_results_dir: string,
};

function describe(setting: Setting): string {
  switch (setting.kind) {
    case 'string':
      return 'a non-empty string';
    case 'enum':
      return `one of ${setting.values.join(', ')}`;
    case 'integer':
      return setting.max === Number.MAX_SAFE_INTEGER ? `an integer ≥ ${setting.min}` : `an integer from ${setting.min} to ${setting.max}`;
    case 'number':
      return setting.max === Number.MAX_VALUE ? `a number ≥ ${setting.min}` : `a number from ${setting.min} to ${setting.max}`;
    case 'boolean':
      return 'true or false';
    case 'strings':
      return 'a list of strings';
  }
}

/** Turns text (environment, command line) into the value the setting's kind expects. */
function fromText(setting: Setting, raw: string): unknown {
  switch (setting.kind) {
    case 'integer':
    case 'number':
      return raw.trim() === '' ? raw : Number(raw);
    case 'boolean':
      return raw === 'true' || raw === '1' ? true : raw === 'false' || raw === '0' ? false : raw;
    case 'strings':
      return raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
    default:
      return raw;
  }
}

/** The typed value, or a message `path: must be ..., got ...`. */
export function checkSetting(path: string, input: unknown, isText = false): { value: SettingValue } | string {
  const setting = SETTINGS[path];
  const value = isText && typeof input === 'string' ? fromText(setting, input) : input;
  const fail = (): string => `${path}: must be ${describe(setting)}, got ${JSON.stringify(input)}`;
  switch (setting.kind) {
    case 'string':
      return typeof value === 'string' && value.trim() !== '' ? { value } : fail();
    case 'enum':
      return typeof value === 'string' && setting.values.includes(value) ? { value } : fail();
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) && value >= setting.min && value <= setting.max ? { value } : fail();
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) && value >= setting.min && value <= setting.max ? { value } : fail();
    case 'boolean':
      return typeof value === 'boolean' ? { value } : fail();
    case 'strings':
      return Array.isArray(value) && value.every((s) => typeof s === 'string') ? { value: value as string[] } : fail();
  }
}
