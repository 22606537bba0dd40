// Writer side of the data-defined sources: RANDOM → SIGNAL with typQuelle 405 (GeckoCIRCUITS'
// random walk of unit steps); PWL → SIGNAL with typQuelle 406 whose data file (`time value` lines)
// is stored in the model, gzip-compressed, as a `<GeckoFile>` of the `<GeckoFileManager>` block
// (the inverse of datafiles.ts). GeckoCIRCUITS always repeats imported data and starts it at t = 0.
import { gzipSync } from 'node:zlib';
import type { ControlBlock } from '../netlist.js';
import { problem, putFlag, putParam, type Plan, type PlanContext } from './plan.js';

/** A 31-bit FNV-1a hash: the file's `hashValue`, by which the SIGNAL block names it. */
function fileHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h & 0x7fffffff;
}

function signalSlots(ctx: PlanContext, plan: Plan, typQuelle: number): void {
  putParam(ctx, plan, { key: 'typQuelle', slot: 0, def: 404 }, typQuelle);
  for (const [key, slot] of [['amplitudeAC', 1], ['frequenz', 2], ['anteilDC', 3], ['phase', 4], ['tastverhaeltnis', 5]] as const) {
    putParam(ctx, plan, { key, slot, def: 0 }, 0);
  }
  putFlag(plan, 'useExternal', 6, false);
  putFlag(plan, 'displayDetails', 7, false);
  plan.ins = [];
  plan.baseInputs = 0;
}

export function randomPlan(ctx: PlanContext, b: ControlBlock, plan: Plan): void {
  const step = b.params?.step ?? 1;
  if (step !== 1) problem(ctx, b.name, 'GeckoCIRCUITS\' random source takes steps of at most 1 (step must be 1)');
  signalSlots(ctx, plan, 405);
  plan.named.push(['datnamXY', 'not_defined'], ['externalDataFileHashValue', '0'], ['version170', '1']);
}

export function pwlPlan(ctx: PlanContext, b: ControlBlock, plan: Plan): void {
  const p = b.params ?? {};
  const times = Array.isArray(p.times) ? (p.times as number[]) : [];
  const values = Array.isArray(p.values) ? (p.values as number[]) : [];
  if (typeof times[0] !== 'number' || times[0] !== 0) problem(ctx, b.name, 'GeckoCIRCUITS starts imported data at t = 0 (times[0] must be 0)');
  if ((p.repeat ?? 1) !== 1) problem(ctx, b.name, 'GeckoCIRCUITS repeats imported data (repeat must be 1)');
  const text = times.map((t, i) => `${t} ${values[i]}`).join('\n') + '\n';
  const hash = fileHash(`${b.name}\n${text}`);
  const name = `${b.name.replace(/[^\w.-]/g, '_')}.txt`;
  signalSlots(ctx, plan, 406);
  plan.named.push(['datnamXY', name], ['externalDataFileHashValue', String(hash)], ['version170', '1']);
  const bytes = [...gzipSync(Buffer.from(text, 'utf-8'))].map((x) => (x > 127 ? x - 256 : x));
  plan.files = ['<GeckoFile>', `hashValue ${hash}`, `absPath ${name}`, `relPath ${name}`, 'fileSep /', 'isExternal 0',
    'usageList[] ', '<usageList>', '<\\usageList>', `fileContents[] ${bytes.join(' ')} `, '<\\GeckoFile>'];
}
