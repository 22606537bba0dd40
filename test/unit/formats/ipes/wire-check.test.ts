// Wires that connect nothing: a wire is judged with the terminals of every component, the ones the
// engine does not simulate included (thermal two-ports, Java blocks), so a wire ending on such a
// component is not blamed; a wire that misses every terminal still is.
import { expect } from 'chai';
import { readIpes } from '../../../../src/formats/ipes/index.js';
import { edit, fixtureText, netlistError, textBytes } from './helpers.js';

/** A thermal element (eTH) of typ `typ` at (x, y) with orientation `orientation`. */
function thermal(name: string, typ: number, x: number, y: number, orientation: number): string[] {
  return ['eTH (0)', '<ElementTHERM>', 'labelAnfangsKnoten[] /NIX_NIX_NIX', 'labelEndKnoten[] /NIX_NIX_NIX', 'enabledShorted 1', `typ ${typ}`,
    `x ${x}`, `y ${y}`, 'parameter[] 1.0 ', `orientierung ${orientation}`, `idStringDialog ${name}`, '<\\ElementTHERM>'];
}

function thermalWire(points: Array<[number, number]>): string[] {
  return ['verbindungTHERM (0)', '<Verbindung>', 'label NIX_NIX_NIX', `x[] ${points.map((p) => p[0]).join(' ')} `,
    `y[] ${points.map((p) => p[1]).join(' ')} `, 'connectorType 4', '<\\Verbindung>'];
}

const withParts = (lines: string[]): string => edit(fixtureText('buck_simple.ipes'), 'thermANZAHL 0\n', [...lines, 'thermANZAHL 0', ''].join('\n'));

describe('ipes reader: wires on components the engine does not simulate', () => {
  // Rth at (14, 45) turned 504: XIN (0, 2) → (16, 45), YOUT (0, −2) → (12, 45).
  // Cth at (14, 47) turned 502: XIN (0, 2) → (12, 47), YOUT → (16, 47).
  const network = [...thermal('Rth.1', 46, 14, 45, 504), ...thermal('Cth.1', 47, 14, 47, 502)];

  it('connects thermal wires that end on thermal two-port terminals', () => {
    const { netlist } = readIpes(textBytes(withParts([...network, ...thermalWire([[12, 45], [12, 46], [12, 47]])])));
    const rth = netlist.thermal!.find((e) => e.name === 'Rth.1')!;
    const cth = netlist.thermal!.find((e) => e.name === 'Cth.1')!;
    expect(rth.nodes[1]).to.equal(cth.nodes[0]);
    expect(rth.nodes[0]).to.not.equal(rth.nodes[1]);
  });

  it('still blames a thermal wire that misses every terminal', () => {
    const error = netlistError(() => readIpes(textBytes(withParts([...network, ...thermalWire([[13, 45], [13, 46], [13, 47]])]))));
    expect(error.code).to.equal('WIRE_UNCONNECTED');
    expect(error.message).to.match(/thermal wire from \(13, 45\) to \(13, 47\) connects nothing/);
  });

  it('does not judge wires when a component without known terminal positions is in the circuit', () => {
    // A DC machine (e typ 14): its terminal positions are not known here, so the wire is not judged.
    const opamp = ['e (9)', '<ElementLK>', 'labelAnfangsKnoten[] /NIX_NIX_NIX/NIX_NIX_NIX', 'labelEndKnoten[] /NIX_NIX_NIX', 'enabledShorted 1', 'typ 14',
      'x 40', 'y 40', 'parameter[] 1.0 ', 'orientierung 503', 'idStringDialog DCM.1', '<\\ElementLK>'];
    const wire = ['verbindungLK (9)', '<Verbindung>', 'label NIX_NIX_NIX', 'x[] 37 36 ', 'y[] 40 40 ', 'connectorType 0', '<\\Verbindung>'];
    const error = netlistError(() => readIpes(textBytes(withParts([...opamp, ...wire]))));
    expect(error.code).to.equal('UNSUPPORTED_COMPONENTS');
    expect(error.details.map((d) => d.component)).to.deep.equal(['DCM.1']);
  });
});
