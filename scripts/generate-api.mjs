// Build step: generates routes and the OpenAPI description of every tsoa service configuration
// at the top level (tsoa.json: the simulation service; tsoa.*.json: other services) into
// src/generated/, which is build output and never committed.
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsoa = join(root, 'node_modules', '.bin', 'tsoa');
const configs = readdirSync(root).filter((f) => /^tsoa(\.[a-z0-9-]+)?\.json$/.test(f)).sort();
for (const config of configs) {
  execFileSync(tsoa, ['spec-and-routes', '-c', config], { cwd: root, stdio: 'inherit' });
  console.log(`pesim: generated routes and OpenAPI from ${config}`);
}
