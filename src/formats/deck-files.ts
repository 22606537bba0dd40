// Files a SPICE deck includes (`.include`, `.lib`, PWL files): read by a path relative to the
// deck's folder (absolute paths as they are). Used where the deck is a file on disk (CLI, scripts);
// with `root`, only files inside that folder are read (symbolic links included), for services that
// serve a models directory. A deck uploaded alone has no such reader and its includes are errors.
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import type { DeckFileReader } from './spice/includes.js';

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

export function deckFiles(deckFile: string, options: { root?: string } = {}): DeckFileReader {
  const folder = dirname(resolve(deckFile));
  const root = options.root === undefined ? undefined : realpathSync(resolve(options.root));
  return (path) => {
    try {
      const full = isAbsolute(path) ? path : resolve(folder, path);
      if (root !== undefined && !inside(root, realpathSync(full))) return undefined;
      return readFileSync(full);
    } catch {
      return undefined;
    }
  };
}
