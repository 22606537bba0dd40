#!/usr/bin/env node
// Runs before `npm install`: nothing to check when a prebuilt binary fits this machine and no build
// from source is asked for (scripts/prebuild-fit.mjs). Otherwise the native build needs cmake,
// Eigen 3.4 and, for the Parquet writer, the snappy, lz4 and zlib development files (headers and
// libraries). On Debian/Ubuntu, when
// apt can be used (root or passwordless sudo), missing packages are installed; otherwise the install
// stops with the exact command to run. Skipped with PESIM_SKIP_SYSTEM_CHECK=1 (e.g. vcpkg users).
import { existsSync } from 'node:fs';
import { has, installOrStop } from './apt-install.mjs';
import { buildFromSourceAsked, fittingPrebuild } from './prebuild-fit.mjs';

if (process.env.PESIM_SKIP_SYSTEM_CHECK === '1') process.exit(0);
if (!buildFromSourceAsked() && fittingPrebuild()) process.exit(0);

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
installOrStop(missing, 'the native engine', 'Then run npm install again. (vcpkg users: set VCPKG_ROOT; the manifest is vcpkg.json.)');
