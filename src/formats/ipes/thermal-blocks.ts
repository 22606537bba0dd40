// Thermal meters (control blocks `c` typ 16 TEMP, 17 FLOW) → netlist blocks. GeckoCIRCUITS:
// `ReglerTEMP` is a potential measurement in the thermal domain (`AbstractPotentialMeasurement`):
// T(label 1) − T(label 2) of the node labels in parameterString[0..1], else the temperature
// difference across the coupled element (XIN minus YOUT) → TEMP { nodes: [a, b] }.
// `ReglerFlowMeter` measures the heat flow through the coupled thermal element (XIN → YOUT) →
// FLOW { element }; coupled to a Pv it measures that loss source's losses, the part chosen by
// `losscomp` (total / conduction / switching, `LossComponent`) → LOSS { device, part }.
// Both have no inputs and one output at (x + 2, y).
import type { ControlBlock } from '../netlist.js';
import type { ThermalBlockType, ThermalElement } from '../thermal-netlist.js';
import type { ComponentRecord } from './components.js';
import { controlTerminals, type TerminalGeometry } from './geometry.js';
import { issue, unsupported, type ReadContext } from './params.js';
import { PV_TYP } from './thermal.js';

export const TEMP_TYP = 16;
export const FLOW_TYP = 17;
export const isThermalMeter = (c: ComponentRecord): boolean => c.block === 'c' && (c.typ === TEMP_TYP || c.typ === FLOW_TYP);

export function thermalMeterTerminals(c: ComponentRecord): TerminalGeometry {
  return controlTerminals(undefined, c.x, c.y, 0, 1, false);
}

export interface ThermalBlockEnv {
  ctx: ReadContext;
  output(index: number): string;
  /** Thermal node name of a saved thermal label. */
  nodeOfLabel(label: string): string | undefined;
  coupled(uid: number | undefined, name: string | undefined): { index: number; record: ComponentRecord } | undefined;
  /** The mapped thermal element of a component name (the Pv's PV element included). */
  thermalElement(name: string): ThermalElement | undefined;
}

const PARTS: Record<string, string> = { total: 'total', conduction: 'conduction', switching: 'switching', cond: 'conduction', swtch: 'switching' };

function temperature(env: ThermalBlockEnv, c: ComponentRecord, block: ControlBlock): ControlBlock | undefined {
  const [a, b] = [c.strings[0] ?? '', c.strings[1] ?? ''];
  if (a && b) {
    const nodes = [env.nodeOfLabel(a), env.nodeOfLabel(b)];
    if (nodes[0] && nodes[1]) return { ...block, params: { nodes: nodes as string[] } };
    issue(env.ctx, c, `measures between labels '${a}' and '${b}', but ${nodes[0] ? `'${b}'` : `'${a}'`} is not a label of the thermal network`);
    return undefined;
  }
  const partner = env.coupled(c.coupled[0], c.strings[2]);
  const element = partner && env.thermalElement(partner.record.name);
  if (!element) {
    issue(env.ctx, c, 'measures nothing: no thermal labels and no coupled thermal element');
    return undefined;
  }
  // Across the element from its XIN to its YOUT: QSRC and PV list YOUT first.
  const nodes = element.type === 'QSRC' || element.type === 'PV' ? [element.nodes[1], element.nodes[0]] : element.nodes;
  return { ...block, params: { nodes } };
}

function flow(env: ThermalBlockEnv, c: ComponentRecord, block: ControlBlock): ControlBlock | undefined {
  const partner = env.coupled(c.coupled[0], c.strings[0]);
  const element = partner && env.thermalElement(partner.record.name);
  if (!partner || !element) {
    issue(env.ctx, c, `measures no thermal element of the circuit ('${c.strings[0] ?? ''}')`);
    return undefined;
  }
  if (partner.record.typ === PV_TYP) {
    const saved = c.tokens.text('losscomp') ?? 'total';
    const part = PARTS[saved];
    if (!part) {
      issue(env.ctx, c, `losscomp '${saved}' is not total, conduction or switching`);
      return undefined;
    }
    if (element.type !== 'PV') return { ...block, type: 'CONST', params: { value: 0 } };
    const params: Record<string, string> = { device: String(element.params?.device) };
    if (part !== 'total') params.part = part;
    return { ...block, type: 'LOSS', params };
  }
  if (element.type === 'QSRC') {
    unsupported(env.ctx, c, 'heat-flow meter on a heat source (its flow is its own value P)');
    return undefined;
  }
  return { ...block, params: { element: element.name } };
}

/** Maps a TEMP or FLOW block; undefined when it was reported. */
export function mapThermalMeter(env: ThermalBlockEnv, index: number, c: ComponentRecord): ControlBlock | undefined {
  const type: ThermalBlockType = c.typ === TEMP_TYP ? 'TEMP' : 'FLOW';
  const block = { name: c.name, type, outputs: [env.output(index)] };
  return c.typ === TEMP_TYP ? temperature(env, c, block) : flow(env, c, block);
}
