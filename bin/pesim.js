#!/usr/bin/env node
// The `pesim` command: runs the compiled CLI (dist/), built by `npm install` / `npm run build:ts`.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/src/cli/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  console.error('pesim: the command is not built yet. Run `npm run build` in ' + fileURLToPath(new URL('..', import.meta.url)));
  process.exit(1);
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv);
