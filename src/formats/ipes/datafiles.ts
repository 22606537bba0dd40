// Signals imported from data files (SIGNAL with typQuelle 406 → PWL). GeckoCIRCUITS keeps the
// files a model uses in the `<GeckoFileManager>` section: one `<GeckoFile>` per file with its
// `hashValue`, `absPath`, `relPath`, `isExternal` and, for files stored in the model,
// `fileContents[]` (the file's bytes as signed decimals, gzip-compressed); the SIGNAL block names
// its file by `externalDataFileHashValue` and `datnamXY` (ReglerSignalSource, GeckoFile). A file not
// stored in the model is looked up beside the .ipes file by its name (the last part of `relPath`,
// then of `datnamXY`), through the reader's `companion` callback.
// The file format (ReglerSignalSource.readExternalDataFromFile): one line per point, `time value`
// separated by spaces; times are shifted so that the first is 0, strictly increasing; the signal is
// linearly interpolated and repeats with the table's length as period (SignalCalculatorImport).
import type { ComponentRecord } from './components.js';
import { decodeIpes } from './container.js';
import type { RawBlock } from './tokens.js';
import { unsupported, type ReadContext } from './params.js';

/** Reads a file that lies beside the .ipes file, by name; undefined when there is none. */
export type CompanionReader = (name: string) => Uint8Array | undefined;

export interface DataFile {
  hash: number;
  absPath: string;
  relPath: string;
  /** File bytes stored in the model (absent for external files). */
  contents?: Uint8Array;
}

export interface SignalTable {
  times: number[];
  values: number[];
}

/** The `<GeckoFile>` entries of the `<GeckoFileManager>` block, by hash value. */
export function readFileManager(block: RawBlock | undefined): Map<number, DataFile> {
  const files = new Map<number, DataFile>();
  if (!block) return files;
  let entry: Partial<DataFile> | undefined;
  for (const line of block.lines) {
    if (line.startsWith('<GeckoFile>')) entry = {};
    else if (line.startsWith('<\\GeckoFile>') && entry) {
      if (entry.hash !== undefined) files.set(entry.hash, { absPath: '', relPath: '', ...entry } as DataFile);
      entry = undefined;
    } else if (entry) {
      const space = line.indexOf(' ');
      const key = space < 0 ? line : line.slice(0, space);
      const value = space < 0 ? '' : line.slice(space + 1).trimEnd();
      if (key === 'hashValue') entry.hash = Number(value);
      else if (key === 'absPath') entry.absPath = value;
      else if (key === 'relPath') entry.relPath = value;
      else if (key === 'fileContents[]' && value.trim()) entry.contents = Uint8Array.from(value.trim().split(/\s+/).map((b) => Number(b) & 0xff));
    }
  }
  return files;
}

/** Last part of a Windows or POSIX path. */
export function baseName(path: string): string {
  return path.split(/[\\/]/).pop() ?? path;
}

/** Parses a GeckoCIRCUITS signal data file; a string is the reason it is invalid. */
export function parseSignalTable(text: string): SignalTable | string {
  const times: number[] = [];
  const values: number[] = [];
  let start = 0;
  const lines = text.split(/\r\n?|\n/);
  for (let i = 0; i < lines.length; i++) {
    const fields = lines[i].trim().split(/[\s,;]+/).filter((f) => f.length > 0);
    if (fields.length === 0) continue;
    const [t, y] = fields.map(Number);
    if (fields.length < 2 || !Number.isFinite(t) || !Number.isFinite(y)) return `line ${i + 1} is not 'time value' ('${lines[i].trim()}')`;
    if (times.length === 0) start = t;
    else if (!(t - start > times[times.length - 1])) return `line ${i + 1}: time ${t} does not increase`;
    times.push(t - start);
    values.push(y);
  }
  if (times.length < 2) return 'it has fewer than two points';
  return { times, values };
}

/**
 * The data of an imported SIGNAL: stored in the model, else beside the .ipes file. Reports the
 * block as unsupported (naming the file) and returns undefined when neither has it or it is invalid.
 */
export function importedSignal(ctx: ReadContext, c: ComponentRecord, files: Map<number, DataFile>, companion?: CompanionReader): SignalTable | undefined {
  const datnam = c.tokens.text('datnamXY') ?? '';
  const hash = c.tokens.number('externalDataFileHashValue');
  const file = hash === undefined ? undefined : files.get(hash);
  const names = [...new Set([file?.relPath, file?.absPath, datnam].filter((p): p is string => !!p).map(baseName))];
  const shown = names[0] ?? (datnam || 'not_defined');
  let bytes = file?.contents;
  let source = `stored copy of '${shown}'`;
  for (const name of names) {
    if (bytes) break;
    bytes = companion?.(name);
    source = `'${name}'`;
  }
  if (!bytes) {
    const where = ctx.fileName ? ` beside ${baseName(ctx.fileName)}` : '';
    unsupported(ctx, c, `imports its signal from the data file '${shown}' (datnamXY ${datnam || 'not set'}), which is neither stored in the model nor found${where}`);
    return undefined;
  }
  const table = parseSignalTable(decodeIpes(bytes, shown).text);
  if (typeof table === 'string') {
    unsupported(ctx, c, `data file ${source}: ${table}; expected lines 'time value' with increasing times`);
    return undefined;
  }
  return table;
}
