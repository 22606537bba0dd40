// GeckoCIRCUITS' POW (c typ 44), PT2 (c typ 9) and transfer function (c typ 74) as GeckoCIRCUITS
// saves them: the reader maps them onto the engine's POW, PT2 and TF blocks (the transfer
// function's 20-coefficient polynomial lines trimmed), refuses numerators more than two degrees
// above the denominator, the
// result simulates, and the SPICE writer refuses these blocks naming them. MUX and DEMUX (vector
// signals) stay refused, saying why.
import { expect } from 'chai';
import { readIpes, writeIpesText } from '../../../../src/formats/ipes/index.js';
import { writeSpice } from '../../../../src/formats/spice/index.js';
import { simulateSync } from '../../../../src/index.js';
import type { ControlBlock, Netlist } from '../../../../src/formats/netlist.js';
import { block, edit, fixtureText, netlistError, textBytes } from './helpers.js';

/** A control record as GeckoCIRCUITS 1.7x saves it; `extra` are its individual lines. */
function record(index: number, typ: number, name: string, y: number, ins: string[], out: string, parameters: string, extra: string[] = []): string[] {
  return [`c (${index})`, '<ElementCONTROL>', `labelAnfangsKnoten[] ${ins.map((l) => `/${l}`).join('')}`, `labelEndKnoten[] /${out}`,
    'enabledShorted 1', 'parentSheetIdentifier 0', `typ ${typ}`, 'uniqueObjectIdentifier 1234', 'x 60', `y ${y}`, `parameter[] ${parameters}`,
    'parameterString[] /NIX_NIX_NIX/NIX_NIX_NIX/0', 'nameOpt[] ', 'orientierung 503', `idStringDialog ${name}`, ...extra, '<\\ElementCONTROL>'];
}

/** Twenty coefficients, the given ones first. */
const polynom = (values: number[]): string => [...values, ...new Array<number>(20 - values.length).fill(0)].map((v) => `${v === 0 ? '0.0' : String(v)} `).join('');

function transferFunction(index: number, name: string, y: number, input: string, output: string, num: number[], den: number[], initState = false): string[] {
  return record(index, 74, name, y, [input], output, '', [
    'polynomMode false', `useInitState ${String(initState)}`, 'constant 1.0',
    `nominatorPoles 2.0 ${polynom([]).slice(4)}`, `denominatorZeros 1.0 ${polynom([]).slice(4)}`,
    `nominatorPolynom ${polynom(num)}`, `denominatorPolynom ${polynom(den)}`]);
}

const BLOCKS = [
  ...record(50, 44, 'POW.1', 40, ['u2', 'iL'], 'pw', ''),
  ...record(51, 9, 'PT2.1', 44, ['pw'], 'p2', '2.0E-4 1.5 ', ['<detail>', 'T 2.0E-4', 'a1 1.5', '<\\detail>']),
  ...transferFunction(52, 'TF.1', 48, 'p2', 'tf', [1000, 0.5], [1000, 0.2, 1e-4]),
];

const withBlocks = (lines: string[]): string => edit(fixtureText('buck_simple.ipes'), 'thermANZAHL 0\n', [...lines, 'thermANZAHL 0', ''].join('\n'));

describe('ipes reader: GeckoCIRCUITS POW, PT2 and transfer function blocks', () => {
  it('maps c typ 44, 9 and 74 onto POW, PT2 and TF with their parameters', () => {
    const { netlist } = readIpes(textBytes(withBlocks(BLOCKS)));
    const pow = block(netlist, 'POW.1');
    expect(pow.type).to.equal('POW');
    expect(pow.inputs).to.have.length(2);
    expect(block(netlist, 'PT2.1')).to.deep.include({ type: 'PT2', inputs: pow.outputs, params: { T: 2e-4, gain: 1.5 } });
    expect(block(netlist, 'TF.1')).to.deep.include({ type: 'TF', inputs: block(netlist, 'PT2.1').outputs, params: { num: [1000, 0.5], den: [1000, 0.2, 1e-4] } });
  });

  it('writes the polynomials back as 20 coefficients in polynomial mode; read → write → read keeps the blocks', () => {
    const { netlist } = readIpes(textBytes(withBlocks(BLOCKS)));
    const written = writeIpesText(netlist);
    expect(written).to.include(`nominatorPolynom 1000.0 0.5 ${'0.0 '.repeat(18)}\n`);
    expect(written).to.include(`denominatorPolynom 1000.0 0.2 1.0E-4 ${'0.0 '.repeat(17)}\n`);
    expect(written).to.include('polynomMode true');
    const again = readIpes(textBytes(written)).netlist;
    const ours = (n: Netlist): ControlBlock[] => n.blocks!.filter((b) => ['POW', 'PT2', 'TF'].includes(b.type));
    expect(ours(again)).to.deep.equal(ours(netlist));
  });

  it('simulates the read model: the chain POW → PT2 → TF gives finite values', () => {
    const { netlist } = readIpes(textBytes(withBlocks(BLOCKS)));
    const scope: ControlBlock = { name: 'SCOPE.9', type: 'SCOPE', inputs: block(netlist, 'TF.1').outputs };
    const result = simulateSync({ ...netlist, blocks: [...netlist.blocks!, scope], settings: { ...netlist.settings, tEnd: 2e-4 } });
    const values = Array.from(result.signals['SCOPE.9.ch1']);
    expect(values.length).to.be.greaterThan(10);
    expect(values.every(Number.isFinite)).to.equal(true);
  });

  it('reads numerators up to two degrees above the denominator, refuses more, and warns about a saved initial state', () => {
    const derivative = readIpes(textBytes(withBlocks([...BLOCKS, ...transferFunction(53, 'TF.2', 52, 'p2', 'tf2', [0, 0, 1e-8], [1])])));
    expect(block(derivative.netlist, 'TF.2').params).to.deep.equal({ num: [0, 0, 1e-8], den: [1] });
    expect(derivative.warnings).to.include("TF.2: the numerator is two degrees above the denominator: the engine divides the input's " +
      'second difference by dt², GeckoCIRCUITS by dt, so the results differ');
    const improper = transferFunction(53, 'TF.2', 52, 'p2', 'tf2', [0, 0, 0, 1], [1]);
    const error = netlistError(() => readIpes(textBytes(withBlocks([...BLOCKS, ...improper]))));
    expect(error.details.map((d) => d.message)).to.deep.equal([
      'TF.2 (c typ 74): transfer function with numerator degree 3, more than 2 above denominator degree 0',
    ]);
    const { warnings } = readIpes(textBytes(withBlocks([...BLOCKS, ...transferFunction(53, 'TF.2', 52, 'p2', 'tf2', [1], [1, 1e-3], true)])));
    expect(warnings).to.include("TF.2: the transfer function's saved initial state is not used; its state starts at zero");
  });

  it('refuses MUX and DEMUX, whose signal between them is a vector', () => {
    const mux = record(54, 84, 'MUX.1', 56, ['u2', 'pw'], 'bus', '');
    const demux = record(55, 85, 'DEMUX.1', 60, ['bus'], 'd1', '');
    const error = netlistError(() => readIpes(textBytes(withBlocks([...BLOCKS, ...mux, ...demux]))));
    expect(error.details.map((d) => d.message)).to.deep.equal([
      "MUX.1 (c typ 84): MUX: bundles scalar signals into one vector signal (read by DEMUX or Java blocks); the engine's control signals are scalar",
      "DEMUX.1 (c typ 85): DEMUX: splits a vector signal (from MUX or a Java block) into scalars; the engine's control signals are scalar",
    ]);
  });

  it('the SPICE writer refuses POW, PT2 and TF, naming the block', () => {
    const chain = (b: ControlBlock, extra: ControlBlock[] = []): Netlist => ({
      settings: { tEnd: 1e-3, dt: 1e-6 },
      elements: [{ name: 'V.1', type: 'V', nodes: ['a', '0'], params: { waveform: 'signal', signal: 'y' } }, { name: 'R.1', type: 'R', nodes: ['a', '0'], params: { R: 1 } }],
      blocks: [{ name: 'C.1', type: 'CONST', outputs: ['x'], params: { value: 2 } }, ...extra, b],
    });
    expect(() => writeSpice(chain({ name: 'POW.1', type: 'POW', inputs: ['x', 'x'], outputs: ['y'] }))).to.throw(/POW\.1 \(POW\): ngspice's pow\(x, y\) raises \|x\|/);
    expect(() => writeSpice(chain({ name: 'PT2.1', type: 'PT2', inputs: ['x'], outputs: ['y'], params: { T: 1e-4 } }))).to.throw(/PT2\.1 \(PT2\): a PT2 block cannot be written/);
    expect(() => writeSpice(chain({ name: 'TF.1', type: 'TF', inputs: ['x'], outputs: ['y'], params: { num: [1], den: [1, 1e-4] } }))).to.throw(/TF\.1 \(TF\): a TF block cannot be written/);
  });
});
