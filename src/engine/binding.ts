// Loads the native addon: PESIM_ADDON_PATH when set (only that file), else a build from source
// (build/Release, from cmake-js or an install with --build-from-source; build-gyp/Release, from
// `npm run build:gyp`), else the prebuilt binary of prebuilds/<platform>-<arch>/ that fits this
// Node and C library (chosen with node-gyp-build's tag matching, as prebuildify names them).
// Explains how to build it when none loads.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NativeBinding } from './types.js';

const require = createRequire(import.meta.url);

/** The package root: the nearest folder above this file whose package.json is named pesim. */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'pesim') {
      return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error('pesim: cannot find the package root above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}

interface PrebuildTags { file: string }
/** The tag matching node-gyp-build exports (the names prebuildify gives: node.napi.glibc.node). */
interface NodeGypBuildTags {
  parseTags(file: string): PrebuildTags | undefined;
  matchTags(runtime: string, abi: string): (tags: PrebuildTags | undefined) => boolean;
  compareTags(runtime: string): (a: PrebuildTags, b: PrebuildTags) => number;
}

/** The prebuilt binaries of prebuilds/<platform>-<arch>/ that fit this process, best first. */
export function prebuildCandidates(root = packageRoot()): string[] {
  const folder = join(root, 'prebuilds', `${process.platform}-${process.arch}`);
  if (!existsSync(folder)) return [];
  const tags = require('node-gyp-build') as NodeGypBuildTags;
  return readdirSync(folder)
    .map((file) => tags.parseTags(file))
    .filter(tags.matchTags('node', process.versions.modules))
    .map((t) => t!)
    .sort(tags.compareTags('node'))
    .map((t) => join(folder, t.file));
}

export function addonCandidates(root = packageRoot()): string[] {
  if (process.env.PESIM_ADDON_PATH) return [process.env.PESIM_ADDON_PATH];
  return [
    join(root, 'build', 'Release', 'pesim.node'),
    join(root, 'build-gyp', 'Release', 'pesim.node'),
    ...prebuildCandidates(root),
  ];
}

let cached: NativeBinding | undefined;

/**
 * The addon seen through the interface of one of its features (typed next to the feature's user),
 * after checking that it has the feature's functions: an addon built from older sources is
 * reported as such instead of failing on the first call.
 */
export function bindingFeature<T>(functions: readonly (keyof T & string)[], feature: string): T {
  const binding = loadBinding() as unknown as Record<string, unknown>;
  if (functions.some((name) => typeof binding[name] !== 'function')) {
    throw new Error(`pesim: the native addon has no ${feature} (built from older sources): run \`npm run build:native\``);
  }
  return binding as unknown as T;
}

export function loadBinding(): NativeBinding {
  if (cached) return cached;
  const failures: string[] = [];
  for (const candidate of addonCandidates()) {
    if (!existsSync(candidate)) continue;
    try {
      cached = require(candidate) as NativeBinding;
      return cached;
    } catch (error) {
      failures.push(`${candidate}: ${(error as Error).message}`);
    }
  }
  const tried = failures.length > 0 ? `\nLoad failures:\n  ${failures.join('\n  ')}` : '';
  const where = process.env.PESIM_ADDON_PATH ? ` PESIM_ADDON_PATH=${process.env.PESIM_ADDON_PATH} does not load.` : '';
  const error = new Error(
    `pesim: the native engine cannot be loaded: no prebuilt binary fits ${process.platform}-${process.arch} and there is no local build.${where}` +
      ' Build it from source: `npm rebuild pesim --build-from-source` (in a checkout: `npm run build:native`) in ' + packageRoot() +
      ' (needs cmake ≥ 3.16, a C++17 compiler, Eigen 3.4, snappy, lz4 and zlib:' +
      ' `sudo apt-get install -y cmake g++ libeigen3-dev libsnappy-dev liblz4-dev zlib1g-dev`).' +
      tried,
  );
  (error as Error & { code: string }).code = 'ADDON_NOT_BUILT';
  throw error;
}
