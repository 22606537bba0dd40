// Reading a service's configuration file, shared by every server: `.properties` (java.util.Properties
// lines, simplified), `.yml`/`.yaml` and `.json`, and the one ConfigError every configuration problem
// is reported as. Each service maps what it reads onto its own settings.
import { readFileSync } from 'node:fs';
import { load as loadYaml } from 'js-yaml';
import { PesimError } from '../errors/pesim-error.js';

/** A configuration that cannot be used (code CONFIG_INVALID): `problems` lists each, naming its setting. */
export class ConfigError extends PesimError {
  constructor(message: string, readonly problems: string[] = [message]) {
    super('CONFIG_INVALID', message);
  }
}

/** `key=value` / `key: value` lines; `#` and `!` start comments (java.util.Properties, simplified). */
export function parseProperties(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [index, line] of text.split(/\r?\n/).entries()) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#') || trimmed.startsWith('!')) continue;
    const match = /^([^=:\s]+)\s*[=:]\s*(.*)$/.exec(trimmed);
    if (!match) throw new ConfigError(`line ${index + 1}: expected key=value, got "${trimmed}"`);
    out[match[1]] = match[2];
  }
  return out;
}

/** Nested YAML maps flattened to dotted keys (`sim: {api: {port: 1}}` → `sim.api.port`). */
export function flatten(value: unknown, prefix: string, out: Record<string, string>): void {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else if (Array.isArray(value)) {
    out[prefix] = value.map(String).join(',');
  } else if (value !== null && value !== undefined) {
    out[prefix] = String(value);
  }
}

/** A `.properties`, `.yml`/`.yaml` or `.json` file as flat dotted keys (`sim: {api: {port: 1}}` → `sim.api.port`). */
export function readFlatConfigFile(path: string): Record<string, string> {
  const text = readText(path);
  try {
    if (/\.properties$/i.test(path) || !/\.(ya?ml|json)$/i.test(path)) return parseProperties(text);
    const out: Record<string, string> = {};
    flatten(parseTree(path, text), '', out);
    return out;
  } catch (error) {
    throw new ConfigError(`config file ${path}: ${(error as Error).message}`);
  }
}

/** A `.yml`/`.yaml` or `.json` file as the tree it holds. */
export function readConfigTree(path: string): unknown {
  const text = readText(path);
  try {
    return parseTree(path, text);
  } catch (error) {
    throw new ConfigError(`the file is not valid ${/\.json$/i.test(path) ? 'JSON' : 'YAML'}: ${(error as Error).message}`);
  }
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`cannot read the config file ${path}: ${(error as Error).message}`);
  }
}

function parseTree(path: string, text: string): unknown {
  return /\.json$/i.test(path) ? JSON.parse(text) : loadYaml(text);
}
