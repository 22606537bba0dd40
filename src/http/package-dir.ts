// The directory of the package this file belongs to (the one with package.json), found from the
// sources (src/http under tsx) and from the compiled package (dist/src/http) alike, and the
// directories the build writes into it (dist/web, dist/vendor).
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function packageDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    dir = dirname(dir);
  }
  return process.cwd();
}

/** `dist/vendor/<name>`: files of a package copied there at build time (scripts/build-vendor.mjs). */
export function vendorDir(name: string): string {
  return join(packageDir(), 'dist', 'vendor', name);
}
