// The engine benchmark's electro-thermal case: the three-phase inverter of the engine cases with
// simple loss models on its six IGBTs and anti-parallel diodes, each pair heating a junction
// (Rth,jc 0.3 K/W, Cth 0.05 J/K) on a common heat sink (0.05 K/W to a 20 J/K sink, 0.2 K/W to
// 40 °C ambient). Compared with the same inverter without losses and thermal network.
import type { Netlist } from '../src/index.js';
import { threePhaseInverter } from '../test/fixtures/circuits.js';

export function thermalInverter(): Netlist {
  const netlist = threePhaseInverter();
  const thermal: NonNullable<Netlist['thermal']> = [
    { name: 'Tamb', type: 'TSRC', nodes: ['amb', '0'], params: { T: 40 } },
    { name: 'Rth.sa', type: 'RTH', nodes: ['sink', 'amb'], params: { R: 0.2 } },
    { name: 'Cth.s', type: 'CTH', nodes: ['sink', '0'], params: { C: 20, T0: 40 } },
  ];
  for (const e of netlist.elements) {
    if (e.type !== 'IGBT') continue;
    e.params = { ...e.params, kOn: 1e-5, kOff: 1.5e-5, uSWnorm: 600 };
    const j = `j.${e.name}`;
    thermal.push(
      { name: `Pv.${e.name}`, type: 'PV', nodes: [j, '0'], params: { device: e.name } },
      { name: `Pv.${e.name}.diode`, type: 'PV', nodes: [j, '0'], params: { device: `${e.name}.diode` } },
      { name: `Rth.${e.name}`, type: 'RTH', nodes: [j, 'sink'], params: { R: 0.3 } },
      { name: `Cth.${e.name}`, type: 'CTH', nodes: [j, 'sink'], params: { C: 0.05 } },
    );
  }
  netlist.thermal = thermal;
  netlist.blocks = [
    ...(netlist.blocks ?? []),
    // Junction temperature and loss of one IGBT, measured over the window (the same three
    // recorded channels as the case without losses, so only the electro-thermal work differs).
    { name: 'TEMP.aH', type: 'TEMP', outputs: ['tjaH'], params: { nodes: ['j.IGBT.aH', '0'] } },
    { name: 'LOSS.aH', type: 'LOSS', outputs: ['paH'], params: { device: 'IGBT.aH' } },
  ];
  return { ...netlist, name: 'inverter with losses and heat sink' };
}
