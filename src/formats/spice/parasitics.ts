// LTspice's instance parasitics: `Rser` (and `Lser` on capacitors) in series, `Rpar` and `Cpar`
// across the element, on L, C and (Rser only) V cards. Each becomes an element of its own named
// after its owner (`L1.Rser`, `C1.Cpar`); series parts join the owner through internal nodes
// (`l1.rser`, `c1.lser`), so the owner keeps its name and its current `I(L1)`. LTspice's default
// inductor Rser of 1 mΩ is a simulator default, not part of the netlist: pesim adds nothing unasked.
import type { NetlistElement } from '../netlist.js';

export const PARASITICS: Record<'L' | 'C' | 'V', readonly string[]> = {
  L: ['rser', 'rpar', 'cpar'],
  C: ['rser', 'lser', 'rpar', 'cpar'],
  V: ['rser'],
};

const LABEL: Record<string, string> = { rser: 'Rser', lser: 'Lser', rpar: 'Rpar', cpar: 'Cpar' };

/** The owner with its nodes rewired and the parasitic elements (values 0 are left out). */
export function withParasitics(owner: NetlistElement, values: Map<string, number>): NetlistElement[] {
  const [a, b] = owner.nodes;
  const extra: NetlistElement[] = [];
  let end = b;
  for (const key of ['lser', 'rser']) {
    const value = values.get(key);
    if (!value) continue;
    const node = `${owner.name.toLowerCase()}.${key}`;
    const type = key === 'lser' ? 'L' : 'R';
    extra.push({ name: `${owner.name}.${LABEL[key]}`, type, nodes: [node, end], params: { [type]: value } });
    end = node;
  }
  const main = { ...owner, nodes: [a, end] };
  for (const key of ['rpar', 'cpar']) {
    const value = values.get(key);
    if (!value) continue;
    const type = key === 'rpar' ? 'R' : 'C';
    extra.push({ name: `${owner.name}.${LABEL[key]}`, type, nodes: [a, b], params: { [type]: value } });
  }
  return [main, ...extra];
}
