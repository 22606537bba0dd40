// The version `pesim --version` prints: the one in the package's package.json.
import { readFileSync } from 'node:fs';
import { packageRoot } from '../engine/binding.js';

export function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(`${packageRoot()}/package.json`, 'utf8')) as { version?: string };
  return manifest.version ?? 'unknown';
}
