// Data directories of the benchmarks: fresh folders under bench/.data/ (git-ignored), not the
// system temporary directory. The services keep their data under the working directory by default
// (./data), and file creation costs differ a lot between folders of one disk: on the reference
// machine a file created under /tmp took 0.6–1 ms, under the repository ≈ 0.2 ms, which would make
// a per-result cost of the temporary folder look like one of the job runtime.
//
// bench/.data/ is marked as the top of a directory tree (`chattr +T`, ext4's TOPDIR flag), so that
// ext4 places each fresh folder under it in a block group of its own choosing (the Orlov
// allocator's spread) instead of the parent's group. On ext4 without a journal (the reference
// machine) a new file's inode is taken from its folder's group, skipping every inode of that group
// freed in the last 60 s, or 360 s while its inode-table block is dirty (fs/ext4/ialloc.c,
// recently_deleted): after one set-up removed its ≈ 1 200 result files, each file the next set-up
// created scanned past all of them. In a `pesim serve` batch that was 18 % of the process's CPU
// (`openat`, ≈ 0.5 ms a run); in fresh groups it is 1 %. A service whose deletions are minutes
// apart, or any ext4 with a journal, does not pay it. Elsewhere the flag is not supported and
// nothing changes.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = () => fileURLToPath(new URL('./.data/', import.meta.url));

export function benchDataDir(prefix) {
  const dir = root();
  mkdirSync(dir, { recursive: true });
  spawnSync('chattr', ['+T', dir], { stdio: 'ignore' }); // best effort: not every file system has the flag
  return mkdtempSync(join(dir, prefix));
}

// Removes what the benchmarks left under bench/.data/. Called once, after the last section (see
// above: deleting thousands of result files slows the file creations that follow in the same
// block group).
export function removeBenchData() {
  rmSync(root(), { recursive: true, force: true });
}
