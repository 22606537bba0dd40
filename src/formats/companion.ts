// Data files that lie beside a circuit file (a GeckoCIRCUITS signal imported from `uCM.txt`):
// the reader asks for them by name; only plain names in the circuit file's folder are read.
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { CompanionReader } from './ipes/datafiles.js';

export function companionFiles(circuitFile: string): CompanionReader {
  const folder = dirname(circuitFile);
  return (name) => {
    if (name !== basename(name) || name === '.' || name === '..') return undefined;
    try {
      return readFileSync(join(folder, name));
    } catch {
      return undefined;
    }
  };
}
