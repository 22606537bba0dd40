// Install-time questions shared by scripts/check-system.mjs (preinstall) and scripts/install.mjs
// (install): was a build from source asked for, and does a prebuilt binary fit this machine?
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const packageDir = resolve(import.meta.dirname, '..');

/** `npm install --build-from-source` (npm sets npm_config_build_from_source) or PESIM_BUILD_FROM_SOURCE=1. */
export function buildFromSourceAsked() {
  const flag = process.env.npm_config_build_from_source;
  return (flag !== undefined && flag !== '' && flag !== 'false') || process.env.PESIM_BUILD_FROM_SOURCE === '1';
}

/**
 * The prebuilt binary the engine's loader would pick (dist/src/engine/binding.js, shipped in the
 * package) that loads in a fresh Node process on this machine, or undefined (none for this
 * platform, C library or glibc version, or no compiled loader: a source checkout before its build).
 */
export function fittingPrebuild() {
  const loader = join(packageDir, 'dist', 'src', 'engine', 'binding.js');
  if (!existsSync(loader)) return undefined;
  const probe = `
    const { prebuildCandidates } = await import(${JSON.stringify(pathToFileURL(loader).href)});
    const { createRequire } = await import('node:module');
    const require = createRequire(import.meta.url);
    for (const file of prebuildCandidates(${JSON.stringify(packageDir)})) {
      try { require(file); console.log(file); process.exit(0); } catch (error) { console.error(file + ': ' + error.message); }
    }
    process.exit(1);`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', probe], { encoding: 'utf8' });
  if (r.status === 0) return r.stdout.trim();
  if (r.stderr.trim()) console.error(`pesim: prebuilt binary does not load here:\n${r.stderr.trim()}`);
  return undefined;
}
