// The permanent-magnet synchronous machine (typ 15, GeckoCIRCUITS MotorPMSM) in the .ipes reader
// and writer. Terminals: XIN[0..2] = stator phases a, b, c at (−2, 1), (−2, 0), (−2, −1); no star
// point. The load torque is the control signal whose label is parameterString[0] (GeckoCIRCUITS
// couples it by label, AbstractMotor's PotentialCoupling), else the constant parameter[10]. The
// numeric parameters are in catalog.ts; parameter[0..6] hold GeckoCIRCUITS' run-time outputs
// (isa, isb, isc, ω, n, θ, Tel), written as 0.
import type { NetlistElement, ParamValue } from '../netlist.js';
import type { ComponentRecord } from './components.js';
import type { ElementKind } from './catalog.js';
import { issue, netParam, type ReadContext } from './params.js';
import { putParam, type Plan, type PlanContext } from './plan.js';

/** parameter[] slot of the constant load torque (MotorPMSM LOAD_TORQUE_INDEX); it has no named line. */
export const PMSM_LOAD_TORQUE_SLOT = 10;
/** Length of GeckoCIRCUITS' parameter[] of a machine (the file lists 40 values). */
const PARAMETER_COUNT = 40;

export interface PmsmEnv {
  ctx: ReadContext;
  node(index: number, side: 'in' | 'out', terminal: number): string;
  signalOfLabel(label: string): string | undefined;
}

/** Reader: the PMSM element, or undefined when its torque label names no control signal. */
export function mapPmsm(env: PmsmEnv, index: number, c: ComponentRecord, params: Record<string, ParamValue>): NetlistElement | undefined {
  const nodes = [env.node(index, 'in', 0), env.node(index, 'in', 1), env.node(index, 'in', 2)];
  const label = c.strings[0] ?? '';
  if (label) {
    const signal = env.signalOfLabel(label);
    if (!signal) {
      issue(env.ctx, c, `load torque '${label}' is not a label of the control circuit`);
      return undefined;
    }
    params.loadSignal = signal;
  }
  params.loadTorque = netParam(env.ctx, c, { key: 'loadTorque', slot: PMSM_LOAD_TORQUE_SLOT, def: 0 });
  return { name: c.name, type: 'PMSM', nodes, params };
}

/** Writer: the three phase terminals, the torque label and the load-torque slot. */
export function pmsmPlan(ctx: PlanContext, e: NetlistElement, plan: Plan, kind: ElementKind): void {
  const p = e.params ?? {};
  plan.ins = [e.nodes[0], e.nodes[1], e.nodes[2]];
  plan.outs = [];
  for (const spec of kind.params) putParam(ctx, plan, spec, p[spec.net]);
  // Slot only: GeckoCIRCUITS saves no named line for the load torque.
  const namedBefore = plan.named.length;
  putParam(ctx, plan, { key: 'loadTorque', slot: PMSM_LOAD_TORQUE_SLOT, def: 0 }, p.loadTorque);
  plan.named.length = namedBefore;
  for (let slot = 0; slot < PARAMETER_COUNT; slot++) plan.slots[slot] ??= 0;
  plan.strings = [typeof p.loadSignal === 'string' ? { signal: p.loadSignal } : '', '', '0'];
}
