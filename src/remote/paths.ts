// Paths named by remote-control callers (loadCircuit, saveCircuit, exportData): resolved against the
// session's folder and, when the session has a root (the XML-RPC server's SIM_RMI_ROOT), refused
// unless they stay inside it — also through symbolic links, by comparing real paths.
import { realpathSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { RemoteError } from './types.js';

export interface PathPolicy {
  /** Relative paths resolve against this folder. */
  base: string;
  /** When set, every path must lie inside this folder. */
  root?: string;
}

function inside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** The real path of `path`, or of its nearest existing ancestor joined with the rest (a file not yet written). */
function realOrAncestor(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    if (parent === path) return path;
    return join(realOrAncestor(parent), basename(path));
  }
}

/** Absolute path for `path`; a RemoteError PATH_OUTSIDE_ROOT when it escapes the root. */
export function resolveRemotePath(path: string, policy: PathPolicy, what: string): string {
  if (typeof path !== 'string' || path.length === 0) throw new RemoteError('INVALID_ARGUMENT', `${what}: expected a file path, got ${JSON.stringify(path)}`);
  if (path.includes('\0')) throw new RemoteError('INVALID_ARGUMENT', `${what}: the path contains a NUL character`);
  const absolute = resolve(policy.root ?? policy.base, path);
  if (policy.root === undefined) return absolute;
  const root = realOrAncestor(resolve(policy.root));
  if (!inside(resolve(policy.root), absolute) || !inside(root, realOrAncestor(absolute))) {
    throw new RemoteError('PATH_OUTSIDE_ROOT', `${what}: ${path} lies outside the remote-control root ${policy.root} (SIM_RMI_ROOT)`);
  }
  return absolute;
}
