// Data directories of the benchmarks: fresh folders under bench/.data/ (git-ignored), not the
// system temporary directory. The services keep their data under the working directory by default
// (./data), and file creation costs differ a lot between folders of one disk: on the reference
// machine a file created under /tmp took 0.6–1 ms, under the repository ≈ 0.2 ms, which would make
// a per-result cost of the temporary folder look like one of the job runtime.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = () => fileURLToPath(new URL('./.data/', import.meta.url));

export function benchDataDir(prefix) {
  const dir = root();
  mkdirSync(dir, { recursive: true });
  return mkdtempSync(join(dir, prefix));
}

// Removes what the benchmarks left under bench/.data/. Called once, after the last section: ext4
// skips inodes deleted within the last 30 s when it allocates new ones, so deleting thousands of
// result files between sections made the file creations of the next section several times slower.
export function removeBenchData() {
  rmSync(root(), { recursive: true, force: true });
}
