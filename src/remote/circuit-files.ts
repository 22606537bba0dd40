// Reading and writing the session's circuit file. Reading detects the kind from the content (.ipes,
// SPICE deck, JSON netlist) and finds GeckoCIRCUITS data files beside it; writing chooses the kind by
// the extension: `.ipes` (GeckoCIRCUITS), `.json` (netlist), `.cir`/`.sp`/`.net`/`.spice` (SPICE deck).
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { companionFiles } from '../formats/companion.js';
import { deckFiles } from '../formats/deck-files.js';
import { NetlistError } from '../formats/errors.js';
import { readCircuitBytes, type CircuitFormat } from '../formats/read.js';
import { checkJsonParameterNames } from '../engine/index.js';
import { writeIpes } from '../formats/ipes/write.js';
import { writeSpice } from '../formats/spice/write.js';
import type { Netlist } from '../formats/netlist.js';
import { writeFileAtomicSync } from '../jobs/cache/formats/index.js';
import { RemoteError } from './types.js';

export interface LoadedCircuit {
  netlist: Netlist;
  format: CircuitFormat;
  warnings: string[];
}

export async function readCircuitAt(path: string): Promise<LoadedCircuit> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new RemoteError('FILE_NOT_FOUND', `loadCircuit: no file ${path}`);
    if (code === 'EISDIR') throw new RemoteError('INVALID_ARGUMENT', `loadCircuit: ${path} is a folder, expected a circuit file`);
    throw new RemoteError('FILE_NOT_FOUND', `loadCircuit: cannot read ${path}: ${(error as Error).message}`);
  }
  try {
    const read = readCircuitBytes(bytes, path, { companion: companionFiles(path), files: deckFiles(path) });
    checkJsonParameterNames(read);
    return read;
  } catch (error) {
    if (error instanceof NetlistError) throw new RemoteError('CIRCUIT_INVALID', `loadCircuit: ${error.message}`, { cause: error });
    throw error;
  }
}

const SPICE_EXTENSIONS = new Set(['.cir', '.sp', '.net', '.spice']);

function encode(netlist: Netlist, path: string): Uint8Array | string {
  const extension = extname(path).toLowerCase();
  if (extension === '.ipes') return writeIpes(netlist);
  if (extension === '.json') return JSON.stringify(netlist, null, 2) + '\n';
  if (SPICE_EXTENSIONS.has(extension)) return writeSpice(netlist);
  throw new RemoteError('INVALID_ARGUMENT', `saveCircuit: ${path}: expected a file name ending in .ipes, .json or one of ${[...SPICE_EXTENSIONS].join(', ')}`);
}

export async function writeCircuitAt(path: string, netlist: Netlist): Promise<void> {
  let data: Uint8Array | string;
  try {
    data = encode(netlist, path);
  } catch (error) {
    if (error instanceof NetlistError) throw new RemoteError('INVALID_ARGUMENT', `saveCircuit: ${error.message}`);
    throw error;
  }
  writeFileAtomicSync(path, typeof data === 'string' ? Buffer.from(data) : data);
}
