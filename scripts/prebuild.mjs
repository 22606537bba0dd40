#!/usr/bin/env node
// `npm run build:prebuild`: the prebuilt binary of the package, for this platform (linux-x64 glibc on the
// CI machine), written to prebuilds/<platform>-<arch>/pesim.<libc>.node where the loader
// (src/engine/binding.ts, node-gyp-build's naming) finds it. prebuildify builds binding.gyp with
// node-gyp as a Node-API addon (one binary for every Node version ≥ 20), stripped, with snappy, lz4,
// zlib and the C++ runtime linked statically (PESIM_STATIC_LIBS=1, see binding.gyp). node-gyp always
// builds in ./build, which cmake-js owns, so the build runs in a temporary copy of the sources.
// Needs what a build from source needs (g++, make, python3, Eigen) plus the static archives
// (libsnappy-dev, liblz4-dev, zlib1g-dev ship them).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'pesim-prebuild-'));
try {
  for (const item of ['binding.gyp', 'package.json', 'native']) cpSync(join(root, item), join(work, item), { recursive: true });
  symlinkSync(join(root, 'node_modules'), join(work, 'node_modules'), 'dir');
  const prebuildify = join(root, 'node_modules', 'prebuildify', 'bin.js');
  const nodeGyp = join(root, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  const env = {
    ...process.env,
    PESIM_STATIC_LIBS: '1',
    // The Node-API headers of the installed Node (no download); node-gyp reads npm_config_nodedir.
    npm_config_nodedir: process.env.npm_config_nodedir || '/usr',
    JOBS: 'max',
  };
  execFileSync(process.execPath, [prebuildify, '--napi', '--strip', '--tag-libc', `--node-gyp=${nodeGyp}`], {
    cwd: work, stdio: 'inherit', env,
  });
  const folder = `${process.platform}-${process.arch}`;
  rmSync(join(root, 'prebuilds', folder), { recursive: true, force: true });
  cpSync(join(work, 'prebuilds', folder), join(root, 'prebuilds', folder), { recursive: true });
  console.log(`pesim: prebuilt binary written: ${readdirSync(join(root, 'prebuilds', folder)).map((f) => `prebuilds/${folder}/${f}`).join(', ')}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
