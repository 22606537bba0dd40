#!/usr/bin/env node
// Runs before `npm install`: the native build needs cmake and Eigen 3.4. On Debian/Ubuntu, when
// apt can be used (root or passwordless sudo), missing packages are installed; otherwise the install
// stops with the exact command to run. Skipped with PESIM_SKIP_SYSTEM_CHECK=1 (e.g. vcpkg users).
import { execSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (process.env.PESIM_SKIP_SYSTEM_CHECK === '1') process.exit(0);

function has(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

const eigenHeaders = ['/usr/include/eigen3/Eigen/Core', '/usr/local/include/eigen3/Eigen/Core', '/opt/homebrew/include/eigen3/Eigen/Core'];
const missing = [];
if (!has('cmake')) missing.push({ tool: 'cmake', apt: 'cmake' });
if (!has('g++') && !has('clang++')) missing.push({ tool: 'a C++17 compiler', apt: 'g++' });
if (!process.env.VCPKG_ROOT && !eigenHeaders.some((path) => existsSync(path))) {
  missing.push({ tool: 'Eigen 3.4', apt: 'libeigen3-dev' });
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
