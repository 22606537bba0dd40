// Data directories of the benchmarks: fresh folders under bench/.data/ (git-ignored), not the
// system temporary directory. The services keep their data under the working directory by default
// (./data), and file creation costs differ a lot between folders of one disk: on the reference
// machine a file created under /tmp took 0.6–1 ms, under the repository ≈ 0.2 ms, which would make
// a per-result cost of the temporary folder look like one of the job runtime.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function benchDataDir(prefix) {
  const root = fileURLToPath(new URL('./.data/', import.meta.url));
  mkdirSync(root, { recursive: true });
  return mkdtempSync(join(root, prefix));
}
