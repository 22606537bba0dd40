// Files a SPICE deck includes (`.include`, `.lib`, PWL files): read by a path relative to the
// deck's folder (absolute paths as they are). Used where the deck is a file on disk (CLI, scripts);
// a deck uploaded alone has no such reader and its includes are errors.
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { DeckFileReader } from './spice/includes.js';

export function deckFiles(deckFile: string): DeckFileReader {
  const folder = dirname(resolve(deckFile));
  return (path) => {
    try {
      return readFileSync(isAbsolute(path) ? path : resolve(folder, path));
    } catch {
      return undefined;
    }
  };
}
