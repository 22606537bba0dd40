// The motor viewer (control typ 62, GeckoCIRCUITS ReglerVIEWMOT): one output, a quantity of a
// machine named in parameterString[1] (also coupledReferenceID) and parameterString[2] as the
// machine lists it (MotorPMSM: "isa [A]", "isb [A]", "isc [A]", "omega", "n [rpm]",
// "theta [rad]", "Tel [Nm]") → netlist block MACHINE {element, quantity}. Only PMSM machines are
// simulated; other machine types are refused with the machine itself.
import type { ControlBlock } from '../netlist.js';
import type { ComponentRecord } from './components.js';
import type { ControlEnv } from './controls.js';
import { unsupported } from './params.js';
import type { Plan, PlanContext } from './plan.js';
import { problem } from './plan.js';

export const MACHINE_METER_TYP = 62;
const PMSM_TYP = 15;
/** Quantity → the text GeckoCIRCUITS saves (name and unit). */
const QUANTITIES: Record<string, string> = {
  isa: 'isa [A]', isb: 'isb [A]', isc: 'isc [A]', omega: 'omega', n: 'n [rpm]', theta: 'theta [rad]', Tel: 'Tel [Nm]',
};

/** Reader: the MACHINE block, or undefined when refused. */
export function mapMachineMeter(env: ControlEnv, index: number, c: ComponentRecord): ControlBlock | undefined {
  const saved = c.strings[0] ?? '';
  const machineName = c.strings[1] || saved.slice(0, saved.lastIndexOf('.'));
  const quantityText = c.strings[2] && c.strings[2] !== '0' ? c.strings[2] : saved.slice(saved.lastIndexOf('.') + 1);
  const quantity = quantityText.replace(/\s*\[.*\]\s*$/, '').trim();
  const machine = env.coupled(c.coupled[0], machineName);
  if (!machine || machine.record.block !== 'e' || machine.record.typ !== PMSM_TYP || !env.isElement(machine.record.name)) {
    unsupported(env.ctx, c, `motor viewer of '${machineName}', which is not a simulated PMSM (only PMSM machines are simulated)`);
    return undefined;
  }
  if (!(quantity in QUANTITIES)) {
    unsupported(env.ctx, c, `motor viewer of the PMSM quantity '${quantityText}' (known: ${Object.values(QUANTITIES).join(', ')})`);
    return undefined;
  }
  return { name: c.name, type: 'MACHINE', outputs: [env.output(index, 0)], params: { element: machine.record.name, quantity } };
}

/** Writer: the coupled machine and the quantity text. */
export function machinePlan(ctx: PlanContext, b: ControlBlock, plan: Plan): void {
  const p = b.params ?? {};
  const machine = String(p.element ?? '');
  const text = QUANTITIES[String(p.quantity)];
  if (!text) problem(ctx, b.name, `unknown machine quantity '${String(p.quantity)}'`);
  plan.strings = [`${machine}.${text ?? ''}`, machine, text ?? ''];
  plan.coupled = [machine];
  plan.named.push(['internalIndex', '6'], ['internalString', `${machine}.${text ?? ''}`]);
}
