// The CISPR 16 EMI test receiver (GeckoCIRCUITS `ReglerCISPR16`, control typ 60) ⇄ the netlist's
// CISPR16 block. One input at (x − 2, y), no outputs (`RegelBlock(1, 0)`). Its settings are named
// lines only (GeckoCIRCUITS `Cispr16Settings`): minFreq, maxFreq, QPinterval (Hz) and the flags
// calcPeak, calcQPeak, calcAverage, useBlackman. GeckoCIRCUITS either analyses every QPinterval
// from minFreq to maxFreq or (automaticQPSelection, its default) the peaks of a spectrum estimate
// (`TestReceiverWindow.findMaximumPeaks`); the engine always analyses the interval, so the reader
// warns when the file asks for the automatic selection and the writer saves the interval mode.
// Display-only lines (showName, showRMS, calcFourier, calcMax, calcMin, blackman, filterThreshold)
// are not part of the netlist.
import type { ControlBlock, ParamValue } from '../netlist.js';
import type { ParamSpec } from './catalog.js';
import type { ComponentRecord } from './components.js';
import { boolParam, netParam, type ReadContext } from './params.js';
import { problem, putFlag, putParam, type Plan, type PlanContext } from './plan.js';

const FREQUENCIES: ParamSpec[] = [
  { key: 'minFreq', slot: -1, net: 'minFrequency', def: 9000 },
  { key: 'maxFreq', slot: -1, net: 'maxFrequency', def: 2e6 },
  { key: 'QPinterval', slot: -1, net: 'interval', def: 9000 },
];

/** The detector and window flags: GeckoCIRCUITS key, netlist name (0 or 1), default. */
const FLAGS: Array<{ key: string; net: string; def: boolean }> = [
  { key: 'calcPeak', net: 'peak', def: true },
  { key: 'calcQPeak', net: 'quasiPeak', def: true },
  { key: 'calcAverage', net: 'average', def: false },
  { key: 'useBlackman', net: 'blackman', def: true },
];

/** Reader side: the netlist parameters of a typ 60 block (its input is set by the caller). */
export function cispr16Block(ctx: ReadContext, c: ComponentRecord, block: ControlBlock): ControlBlock {
  const params: Record<string, ParamValue> = {};
  for (const spec of FREQUENCIES) params[spec.net] = netParam(ctx, c, spec);
  for (const flag of FLAGS) params[flag.net] = boolParam(c, flag.key, -1, flag.def) ? 1 : 0;
  if (c.tokens.boolean('automaticQPSelection') ?? true) {
    ctx.warnings.push(`${c.name}: GeckoCIRCUITS selects the analysed frequencies automatically (peaks of its spectrum estimate); ` +
      `the engine analyses every ${String(params.interval)} Hz (QPinterval) from minFreq to maxFreq`);
  }
  return { ...block, params };
}

/** Writer side: the named lines of a CISPR16 block, in the interval mode. */
export function cispr16Plan(ctx: PlanContext, b: ControlBlock, plan: Plan): void {
  const p = b.params ?? {};
  for (const flag of FLAGS) {
    const value = p[flag.net] ?? (flag.def ? 1 : 0);
    if (value !== 0 && value !== 1) problem(ctx, b.name, `${flag.net} must be 0 or 1 for GeckoCIRCUITS, got ${JSON.stringify(value)}`);
    putFlag(plan, flag.key, -1, value === 1);
  }
  for (const spec of FREQUENCIES) putParam(ctx, plan, spec, p[spec.net]);
  putFlag(plan, 'automaticQPSelection', -1, false);
  putFlag(plan, 'showName', -1, true);
}
