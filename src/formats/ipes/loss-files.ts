// GeckoCIRCUITS loss-curve files (`.scl`) and the files embedded in `<GeckoFileManager>`.
// A `<GeckoFile>` entry (GeckoCIRCUITS `GeckoFile`) has `hashValue` (the id a semiconductor's
// `lossFileHashValue` refers to), `absPath`, `relPath`, `isExternal` (0: contents embedded),
// `usageList[]` (unique ids of the users) and `fileContents[]` (the file's bytes as signed decimals;
// loss files are gzip-compressed text). A loss file (`VerlustBerechnungDetailed`) holds
// `<SchaltverlusteMesskurve>` blocks (`SwitchingLossCurve`: `tj` [°C], `uBlock` [V], `data[][]` rows
// I [A], Eon [Ws], Eoff [Ws], and in some files a fourth row Eon + Eoff that GeckoCIRCUITS drops)
// and `<LeitverlusteMesskurve>` blocks (`LeitverlusteMesskurve`: `tj`, `data[][]` rows U [V], I [A]).
// `data[][] rows cols v...` is row-major.
import { gzipSync } from 'node:zlib';
import type { LossModel } from '../thermal-netlist.js';
import { decodeIpes } from './container.js';
import { javaDouble } from './emit.js';
import { TokenMap, type RawBlock } from './tokens.js';

export interface GeckoFileEntry {
  hash: number;
  absPath: string;
  relPath: string;
  external: boolean;
  contents?: Uint8Array;
}

/** The blocks between `<tag>` and `<\tag>` lines (closing tags use a backslash). */
function blocksOf(lines: readonly string[], tag: string): Array<{ lines: string[]; first: number }> {
  const found: Array<{ lines: string[]; first: number }> = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() !== `<${tag}>`) continue;
    let end = i + 1;
    while (end < lines.length && !lines[end].startsWith(`<\\${tag}>`)) end++;
    found.push({ lines: lines.slice(i + 1, end), first: i + 2 });
    i = end;
  }
  return found;
}

/** The `<GeckoFile>` entries of the `<GeckoFileManager>` block, by hash value. */
export function readGeckoFiles(manager: RawBlock | undefined, fileName?: string): Map<number, GeckoFileEntry> {
  const files = new Map<number, GeckoFileEntry>();
  if (!manager) return files;
  for (const block of blocksOf(manager.lines, 'GeckoFile')) {
    const t = new TokenMap(block.lines, manager.line + block.first - 1, fileName);
    const hash = t.integer('hashValue');
    if (hash === undefined) continue;
    const bytes = t.numbers('fileContents');
    files.set(hash, {
      hash,
      absPath: t.text('absPath') ?? '',
      relPath: t.text('relPath') ?? '',
      external: (t.integer('isExternal') ?? 1) !== 0,
      contents: bytes ? Uint8Array.from(bytes, (b) => b & 0xff) : undefined,
    });
  }
  return files;
}

/** File name without directories, for Windows (`\`) and Unix (`/`) paths. */
export function baseName(path: string): string {
  return path.replace(/^.*[\\/]/, '');
}

function matrix(t: TokenMap, what: string): number[][] {
  const text = t.text('data[][]');
  const values = (text ?? '').split(/\s+/).filter((s) => s.length > 0).map(Number);
  const [rows, cols] = values;
  if (!(rows > 0) || !(cols >= 0) || values.length !== 2 + rows * cols || values.some((v) => !Number.isFinite(v))) {
    throw new Error(`${what}: data[][] must be 'rows cols' followed by rows·cols numbers`);
  }
  return Array.from({ length: rows }, (_, r) => values.slice(2 + r * cols, 2 + (r + 1) * cols));
}

/** Parses the text of a loss file; throws an Error naming the broken curve. */
export function parseLossFile(bytes: Uint8Array): LossModel {
  const lines = decodeIpes(bytes).text.split('\n');
  const model: LossModel = { conduction: [], turnOn: [], turnOff: [] };
  blocksOf(lines, 'SchaltverlusteMesskurve').forEach((b, k) => {
    const t = new TokenMap(b.lines, b.first);
    const data = matrix(t, `switching-loss curve ${k + 1}`);
    if (data.length < 3) throw new Error(`switching-loss curve ${k + 1}: expected rows I, Eon, Eoff in data[][]`);
    const T = t.number('tj') ?? 25;
    const uRef = t.number('uBlock') ?? 300;
    model.turnOn.push({ T, uRef, i: data[0], E: data[1] });
    model.turnOff.push({ T, uRef, i: data[0], E: data[2] });
  });
  blocksOf(lines, 'LeitverlusteMesskurve').forEach((b, k) => {
    const t = new TokenMap(b.lines, b.first);
    const data = matrix(t, `conduction curve ${k + 1}`);
    if (data.length < 2) throw new Error(`conduction curve ${k + 1}: expected rows U, I in data[][]`);
    model.conduction.push({ T: t.number('tj') ?? 25, u: data[0], i: data[1] });
  });
  if (model.conduction.length === 0 && model.turnOn.length === 0) throw new Error('no <SchaltverlusteMesskurve> or <LeitverlusteMesskurve> block');
  return model;
}

const sameNumbers = (a: number[], b: number[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Text of a loss file for a model, or a reason why GeckoCIRCUITS cannot store it: it keeps the
 * turn-on and turn-off energies of one temperature and voltage on the same current points.
 */
export function lossFileText(model: LossModel): { text?: string; problem?: string } {
  if (model.turnOn.length !== model.turnOff.length) return { problem: 'it needs as many turn-off as turn-on curves' };
  const out: string[] = ['', `anzMesskurvenPvSWITCH ${model.turnOn.length}`];
  for (let k = 0; k < model.turnOn.length; k++) {
    const on = model.turnOn[k];
    const off = model.turnOff[k];
    if (on.T !== off.T || on.uRef !== off.uRef || !sameNumbers(on.i, off.i) || on.i.length !== on.E.length || off.i.length !== off.E.length) {
      return { problem: `turn-on and turn-off curve ${k + 1} must share T, uRef and the current points` };
    }
    const values = [...on.i, ...on.E, ...off.E].map(javaDouble).join(' ');
    out.push('<SchaltverlusteMesskurve>', `tj ${javaDouble(on.T)}`, `uBlock ${javaDouble(on.uRef)}`, `data[][] 3 ${on.i.length} ${values}`, '<\\SchaltverlusteMesskurve>');
  }
  out.push(`anzMesskurvenPvCOND ${model.conduction.length}`);
  for (const [k, c] of model.conduction.entries()) {
    if (c.i.length !== c.u.length) return { problem: `conduction curve ${k + 1} needs as many voltages as currents` };
    out.push('<LeitverlusteMesskurve>', `tj ${javaDouble(c.T)}`, `data[][] 2 ${c.u.length} ${[...c.u, ...c.i].map(javaDouble).join(' ')}`, '<\\LeitverlusteMesskurve>');
  }
  return { text: `${out.join('\n')}\n` };
}

/** Lines of one embedded `<GeckoFile>` with gzip-compressed contents. */
export function geckoFileLines(hash: number, path: string, users: number[], text: string): string[] {
  const bytes = [...gzipSync(Buffer.from(text, 'utf-8'))].map((b) => (b > 127 ? b - 256 : b));
  return [
    '<GeckoFile>', `hashValue ${hash}`, `absPath ${path}`, `relPath ${path}`, 'fileSep /', 'isExternal 0',
    `usageList[] ${users.map((u) => `${u} `).join('')}`, '<usageList>', ...users.map(String), '<\\usageList>',
    `fileContents[] ${bytes.join(' ')} `, '<\\GeckoFile>',
  ];
}
