// Installs missing Debian packages for a set-up step (`npm install`, `npm test`): with apt-get as
// root or with passwordless sudo it installs them; otherwise it stops the step with the exact
// command to run. `missing` is a list of {tool, apt}; `purpose` says what needs them.
import { execSync, spawnSync } from 'node:child_process';

export function has(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

export function installOrStop(missing, purpose, again) {
  if (missing.length === 0) return;
  const packages = missing.map((m) => m.apt).join(' ');
  const command = `apt-get update && apt-get install -y ${packages}`;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const sudo = !isRoot && has('sudo') && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
  if (has('apt-get') && (isRoot || sudo)) {
    console.log(`pesim: installing ${missing.map((m) => m.tool).join(', ')} with apt-get`);
    const prefix = isRoot ? '' : 'sudo -n ';
    execSync(`${prefix}apt-get update && ${prefix}env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${packages}`, {
      stdio: 'inherit',
    });
    return;
  }
  console.error(
    `pesim: ${purpose} needs ${missing.map((m) => m.tool).join(', ')}.\n` +
      (has('apt-get') ? `Run:  sudo sh -c '${command}'\n` : `Install them with your package manager (Debian: ${packages}).\n`) +
      again,
  );
  process.exit(1);
}
