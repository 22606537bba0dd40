// Running a written deck with ngspice and reading its output, for tests and benchmarks that compare
// ngspice with pesim: `runNgspice` writes the deck into a temporary directory, runs `ngspice -b`
// there and parses the wrdata file (one time column, then one column per SpiceSignal).
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Netlist } from '../netlist.js';
import { buildSpiceDeck, type SpiceSignal, type SpiceWriteOptions } from './write.js';

/** Runs ngspice; resolves with its messages whatever its exit code (the output file tells success). */
function run(binary: string, args: string[], cwd: string, timeout: number): Promise<{ stdout: string; stderr: string; failure?: Error }> {
  return new Promise((resolve) => {
    execFile(binary, args, { cwd, timeout, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ stdout: String(stdout), stderr: String(stderr), ...(error ? { failure: error } : {}) });
    });
  });
}

export const NGSPICE = '/usr/bin/ngspice';

export interface WrdataTable {
  names: string[];
  time: Float64Array;
  columns: Float64Array[];
}

/** Parses wrdata output written with `wr_singlescale` and `wr_vecnames`. */
export function parseWrdata(text: string): WrdataTable {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
  if (lines.length === 0) throw new Error('ngspice output is empty');
  const header = lines[0].split(/\s+/);
  if (header[0] !== 'time') throw new Error(`ngspice output does not start with a 'time' header: ${lines[0].slice(0, 80)}`);
  const rows = lines.slice(1).map((l) => l.split(/\s+/).map(Number));
  const width = header.length;
  const time = new Float64Array(rows.length);
  const columns = Array.from({ length: width - 1 }, () => new Float64Array(rows.length));
  rows.forEach((row, r) => {
    if (row.length !== width || row.some((v) => Number.isNaN(v))) throw new Error(`ngspice output row ${r + 2} is malformed`);
    time[r] = row[0];
    for (let c = 1; c < width; c++) columns[c - 1][r] = row[c];
  });
  return { names: header.slice(1), time, columns };
}

export interface NgspiceResult {
  time: Float64Array;
  /** Values by signal name (`V(out)`, `I(L1)`, ...). */
  signals: Record<string, Float64Array>;
  signalList: SpiceSignal[];
  deck: string;
  stdout: string;
}

/** Writes the netlist as a deck, runs `ngspice -b` on it and returns the recorded signals. */
export async function runNgspice(netlist: Netlist, options: SpiceWriteOptions & { ngspice?: string; timeoutMs?: number } = {}): Promise<NgspiceResult> {
  const written = buildSpiceDeck(netlist, options);
  const dir = await mkdtemp(join(tmpdir(), 'pesim-ngspice-'));
  try {
    await writeFile(join(dir, 'deck.cir'), written.deck);
    const { stdout, stderr, failure } = await run(options.ngspice ?? NGSPICE, ['-b', 'deck.cir'], dir, options.timeoutMs ?? 120_000);
    let text: string;
    try {
      text = await readFile(join(dir, written.outputFile), 'utf8');
    } catch {
      const why = failure ? ` (${failure.message.split('\n')[0]})` : '';
      throw new Error(`ngspice wrote no output${why}; its messages:\n${stderr}\n${stdout}`.trim());
    }
    const messages = `${stdout}\n${stderr}`;
    const trouble = /^.*(timestep too small|simulation\(s\) aborted|singular matrix).*$/im.exec(messages);
    if (trouble) throw new Error(`ngspice failed: ${trouble[0].trim()}\n${messages}`.trim());
    const table = parseWrdata(text);
    if (table.columns.length !== written.signals.length) {
      throw new Error(`ngspice wrote ${table.columns.length} columns for ${written.signals.length} signals`);
    }
    const signals: Record<string, Float64Array> = {};
    written.signals.forEach((s, i) => (signals[s.name] = table.columns[i]));
    return { time: table.time, signals, signalList: written.signals, deck: written.deck, stdout: stdout + stderr };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
