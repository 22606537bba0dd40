#!/usr/bin/env node
// Runs before `npm install`: nothing to check when a prebuilt binary fits this machine and no build
// from source is asked for (scripts/prebuild-fit.mjs). Otherwise the native build needs cmake,
// Eigen 3.4 and, for the Parquet writer, the snappy, lz4 and zlib development files (headers and
// libraries). On Debian/Ubuntu, when
// apt can be used (root or passwordless sudo), missing packages are installed; otherwise the install
// stops with the exact command to run. Skipped with PESIM_SKIP_SYSTEM_CHECK=1 (e.g. vcpkg users).
import { execSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { buildFromSourceAsked, fittingPrebuild } from './prebuild-fit.mjs';

if (process.env.PESIM_SKIP_SYSTEM_CHECK === '1') process.exit(0);
if (!buildFromSourceAsked() && fittingPrebuild()) process.exit(0);

function has(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

const includeDirs = ['/usr/include', '/usr/local/include', '/opt/homebrew/include'];
const hasHeader = (relative) => includeDirs.some((dir) => existsSync(`${dir}/${relative}`));
const missing = [];
if (!has('cmake')) missing.push({ tool: 'cmake', apt: 'cmake' });
if (!has('g++') && !has('clang++')) missing.push({ tool: 'a C++17 compiler', apt: 'g++' });
if (!process.env.VCPKG_ROOT) {
  if (!hasHeader('eigen3/Eigen/Core')) missing.push({ tool: 'Eigen 3.4', apt: 'libeigen3-dev' });
  // The -dev packages ship the header together with the library to link.
  if (!hasHeader('snappy-c.h')) missing.push({ tool: 'snappy', apt: 'libsnappy-dev' });
  if (!hasHeader('lz4.h')) missing.push({ tool: 'lz4', apt: 'liblz4-dev' });
  if (!hasHeader('zlib.h')) missing.push({ tool: 'zlib', apt: 'zlib1g-dev' });
}
if (missing.length === 0) process.exit(0);

const packages = missing.map((m) => m.apt).join(' ');
const command = `apt-get update && apt-get install -y ${packages}`;
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const sudo = !isRoot && has('sudo') && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
if (has('apt-get') && (isRoot || sudo)) {
  console.log(`pesim: installing ${missing.map((m) => m.tool).join(', ')} with apt-get`);
  const prefix = isRoot ? '' : 'sudo -n ';
  execSync(`${prefix}apt-get update && ${prefix}env DEBIAN_FRONTEND=noninteractive apt-get install -y ${packages}`, {
    stdio: 'inherit',
  });
  process.exit(0);
}
console.error(
  `pesim: the native engine needs ${missing.map((m) => m.tool).join(', ')}.\n` +
    (has('apt-get') ? `Run:  sudo sh -c '${command}'\n` : `Install them with your package manager (Debian: ${packages}).\n`) +
    'Then run npm install again. (vcpkg users: set VCPKG_ROOT; the manifest is vcpkg.json.)',
);
process.exit(1);
