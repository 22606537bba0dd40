// Components that annotate or observe a model without changing it: text fields saved as control
// blocks (c typ 70) and blocks whose outputs feed nothing (Java blocks used as checks or exports,
// display/export blocks). They are dropped with a warning; the same blocks whose outputs are used
// are refused.
import { expect } from 'chai';
import { readIpes, writeIpesText } from '../../../../src/formats/ipes/index.js';
import { block, edit, fixtureText, netlistError, textBytes } from './helpers.js';

/** A control text field as GeckoCIRCUITS 1.7 saves it (`TextFieldBlock`). */
const TEXT_FIELD = ['c (30)', '<ElementCONTROL>', 'labelAnfangsKnoten[] ', 'labelEndKnoten[] ', 'enabledShorted 1', 'typ 70',
  'x 40', 'y 30', 'parameter[] ', 'parameterString[] /NIX_NIX_NIX/NIX_NIX_NIX/0', 'nameOpt[] ', 'orientierung 503',
  'idStringDialog TEXT.9', '<detail>', 'title_string Notes', 'contents_string  set L and C\\n as computed', '<\\detail>', '<\\ElementCONTROL>'];

/** A Java block (`ReglerJavaFunction`) with the given terminal labels; `counts` adds anzXIN / anzYOUT. */
function javaBlock(name: string, x: number, y: number, ins: string[], outs: string[], counts = false): string[] {
  const labels = (l: string[]): string => l.map((v) => `/${v || 'NIX_NIX_NIX'}`).join('');
  return ['c (40)', '<ElementCONTROL>', `labelAnfangsKnoten[] ${labels(ins)}`, `labelEndKnoten[] ${labels(outs)}`, 'enabledShorted 1', 'typ 61',
    `x ${x}`, `y ${y}`, 'parameter[] 0.0 ', 'parameterString[] /NIX_NIX_NIX/NIX_NIX_NIX/0', 'orientierung 503', `idStringDialog ${name}`,
    ...(counts ? [`anzXIN ${ins.length}`, `anzYOUT ${outs.length}`] : []),
    '<sourceCode>', 'if (xIN[0] > 50) System.out.println("overvoltage");', '<\\sourceCode>', '<\\ElementCONTROL>'];
}

function gain(name: string, x: number, y: number, input: string, output: string): string[] {
  return ['c (41)', '<ElementCONTROL>', `labelAnfangsKnoten[] /${input || 'NIX_NIX_NIX'}`, `labelEndKnoten[] /${output}`, 'enabledShorted 1', 'typ 7',
    `x ${x}`, `y ${y}`, 'parameter[] 2.0 ', 'orientierung 503', `idStringDialog ${name}`, '<\\ElementCONTROL>'];
}

function controlWire(points: Array<[number, number]>): string[] {
  return ['verbindungCONTROL (9)', '<Verbindung>', 'label NIX_NIX_NIX', `x[] ${points.map((p) => p[0]).join(' ')} `,
    `y[] ${points.map((p) => p[1]).join(' ')} `, 'connectorType 1', '<\\Verbindung>'];
}

const withBlocks = (lines: string[]): string => edit(fixtureText('buck_simple.ipes'), 'thermANZAHL 0\n', [...lines, 'thermANZAHL 0', ''].join('\n'));

describe('ipes reader: annotations and unused blocks', () => {
  it('drops control-domain text fields with a warning and keeps them for the writer', () => {
    const plain = readIpes(textBytes(fixtureText('buck_simple.ipes'))).netlist;
    const { netlist, warnings } = readIpes(textBytes(withBlocks(TEXT_FIELD)));
    expect(warnings).to.include('TEXT.9: text field ignored');
    expect(netlist.elements).to.deep.equal(plain.elements);
    expect(netlist.blocks).to.deep.equal(plain.blocks);
    const written = writeIpesText(netlist);
    expect(written).to.include('idStringDialog TEXT.9');
    expect(written).to.include('contents_string  set L and C\\n as computed');
    expect(readIpes(textBytes(written)).netlist.blocks).to.deep.equal(plain.blocks);
  });

  it('drops a Java block whose outputs feed nothing, with a warning that its code is not run', () => {
    const plain = readIpes(textBytes(fixtureText('buck_simple.ipes'))).netlist;
    const text = withBlocks([...javaBlock('CHECK.1', 40, 40, ['u2'], ['flag']), ...javaBlock('CHECK.2', 50, 40, ['flag'], [''])]);
    const { netlist, warnings } = readIpes(textBytes(text));
    expect(netlist.blocks).to.deep.equal(plain.blocks);
    // CHECK.1 feeds only CHECK.2, which feeds nothing: both are dropped.
    for (const name of ['CHECK.1', 'CHECK.2']) {
      expect(warnings.some((w) => w.startsWith(`${name}: Java block ignored`) && w.includes('not executed'))).to.equal(true);
    }
    const written = writeIpesText(netlist);
    expect(written).to.include('idStringDialog CHECK.2');
    expect(written).to.include('System.out.println("overvoltage");');
  });

  it('refuses a Java block whose outputs are used, naming what they feed', () => {
    const text = withBlocks([...javaBlock('JAVA.1', 40, 40, ['u2'], ['jo']), ...gain('GAIN.9', 50, 40, 'jo', 'g9')]);
    const error = netlistError(() => readIpes(textBytes(text)));
    expect(error.code).to.equal('UNSUPPORTED_COMPONENTS');
    expect(error.details.map((d) => d.component)).to.deep.equal(['JAVA.1']);
    expect(error.details[0].message).to.equal('JAVA.1 (c typ 61): Java block whose outputs feed GAIN.9; Java code is not executed');
  });

  it('places Java block outputs at (x + 2, y − 1 + j) for anzYOUT outputs', () => {
    // GAIN.9 at (50, 40) has its input at (48, 40); the wire runs from (42, 40) to it.
    const wired = [...gain('GAIN.9', 50, 40, '', 'g9'), ...controlWire([[42, 40], [48, 40]])];
    // Two outputs, at (42, 39) and (42, 40): the second feeds GAIN.9.
    const used = netlistError(() => readIpes(textBytes(withBlocks([...javaBlock('JAVA.1', 40, 40, ['u2'], ['', ''], true), ...wired]))));
    expect(used.details[0].message).to.match(/^JAVA\.1 \(c typ 61\): Java block whose outputs feed GAIN\.9;/);
    // One output, at (42, 39) only: the wire reaches GAIN.9 alone, whose input then reads 0.
    const { netlist, warnings } = readIpes(textBytes(withBlocks([...javaBlock('JAVA.1', 40, 40, ['u2'], [''], true), ...wired])));
    expect(block(netlist, 'GAIN.9').inputs).to.deep.equal(['_zero']);
    expect(warnings.some((w) => w.startsWith('JAVA.1: Java block ignored'))).to.equal(true);
  });

  it('refuses FromEXTERNAL and native C blocks, saying why', () => {
    const external = ['c (42)', '<ElementCONTROL>', 'labelAnfangsKnoten[] ', 'labelEndKnoten[] /ext', 'enabledShorted 1', 'typ 23', 'x 40', 'y 44',
      'orientierung 503', 'idStringDialog FromEXT.1', '<\\ElementCONTROL>'];
    const native = ['c (43)', '<ElementCONTROL>', 'labelAnfangsKnoten[] /u2', 'labelEndKnoten[] /nat', 'enabledShorted 1', 'typ 88', 'x 40', 'y 48',
      'orientierung 503', 'idStringDialog libmodel.so', '<\\ElementCONTROL>'];
    const error = netlistError(() => readIpes(textBytes(withBlocks([...external, ...native]))));
    expect(error.details.map((d) => d.message)).to.deep.equal([
      'FromEXT.1 (c typ 23): FromEXTERNAL block: its signals come from a coupled external program (e.g. Simulink), which is not available',
      'libmodel.so (c typ 88): native C block: its compiled library is not loaded or executed',
    ]);
  });

  it('drops the U-Z-I diagram (c typ 73, a display with four inputs and no outputs) with a warning', () => {
    const plain = readIpes(textBytes(fixtureText('buck_simple.ipes'))).netlist;
    const uzi = ['c (44)', '<ElementCONTROL>', 'labelAnfangsKnoten[] /u2/iL/NIX_NIX_NIX/NIX_NIX_NIX', 'labelEndKnoten[] ', 'enabledShorted 1',
      'typ 73', 'x 54', 'y 17', 'parameter[] ', 'orientierung 503', 'idStringDialog UZI.1', '<detail>', 'scale1 0.02', '<\\detail>', '<\\ElementCONTROL>'];
    const { netlist, warnings } = readIpes(textBytes(withBlocks(uzi)));
    expect(netlist.blocks).to.deep.equal(plain.blocks);
    expect(warnings).to.include('UZI.1: U-Z-I diagram display block ignored (it does not affect the simulation)');
    expect(writeIpesText(netlist)).to.include('idStringDialog UZI.1');
  });
});
