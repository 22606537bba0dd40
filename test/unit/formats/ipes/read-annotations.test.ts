// Components that annotate or observe a model: text fields saved as control blocks (c typ 70) and
// display/export blocks are dropped with a warning (refused when their outputs are used); Java
// blocks are simulated, as observers (`observer: 1`) when their outputs feed nothing.
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

  it('keeps Java blocks whose outputs feed nothing as observers, with their code; read → write → read keeps them', () => {
    const text = withBlocks([...javaBlock('CHECK.1', 40, 40, ['u2'], ['flag']), ...javaBlock('CHECK.2', 50, 40, ['flag'], [''])]);
    const { netlist } = readIpes(textBytes(text));
    // CHECK.1 feeds only CHECK.2, which feeds nothing: both observe.
    for (const name of ['CHECK.1', 'CHECK.2']) {
      const b = block(netlist, name);
      expect(b.type).to.equal('JAVA');
      expect(b.params?.observer).to.equal(1);
      expect(b.params?.code).to.equal('if (xIN[0] > 50) System.out.println("overvoltage");');
    }
    expect(block(netlist, 'CHECK.2').inputs).to.deep.equal(block(netlist, 'CHECK.1').outputs);
    const written = writeIpesText(netlist);
    expect(written).to.include('idStringDialog CHECK.2');
    expect(written).to.include('System.out.println("overvoltage");');
    expect(readIpes(textBytes(written)).netlist.blocks).to.deep.equal(netlist.blocks);
  });

  it("reads a Java block's code as text: code lines that look like record keys do not change the record", () => {
    const lines = javaBlock('JAVA.1', 40, 40, ['u2'], ['jo']);
    const code = lines.indexOf('<sourceCode>') + 1;
    lines.splice(code, 1, 'orientierung = 501;', 'x 2;', 'yOUT[0] = orientierung;', 'return yOUT;');
    const { netlist } = readIpes(textBytes(withBlocks([...lines, ...gain('GAIN.9', 50, 40, 'jo', 'g9')])));
    expect(block(netlist, 'JAVA.1').params?.code).to.equal('orientierung = 501;\nx 2;\nyOUT[0] = orientierung;\nreturn yOUT;');
    expect(block(netlist, 'GAIN.9').inputs).to.deep.equal(block(netlist, 'JAVA.1').outputs);
  });

  it('simulates a Java block whose outputs are used: the reader of its output gets its signal', () => {
    const text = withBlocks([...javaBlock('JAVA.1', 40, 40, ['u2'], ['jo']), ...gain('GAIN.9', 50, 40, 'jo', 'g9')]);
    const { netlist } = readIpes(textBytes(text));
    const java = block(netlist, 'JAVA.1');
    expect(java.params?.observer).to.equal(undefined);
    expect(block(netlist, 'GAIN.9').inputs).to.deep.equal(java.outputs);
  });

  it('places Java block outputs at (x + 2, y − 1 + j) for anzYOUT outputs', () => {
    // GAIN.9 at (50, 40) has its input at (48, 40); the wire runs from (42, 40) to it.
    const wired = [...gain('GAIN.9', 50, 40, '', 'g9'), ...controlWire([[42, 40], [48, 40]])];
    // Two outputs, at (42, 39) and (42, 40): the second feeds GAIN.9.
    const used = readIpes(textBytes(withBlocks([...javaBlock('JAVA.1', 40, 40, ['u2'], ['', ''], true), ...wired]))).netlist;
    expect(block(used, 'GAIN.9').inputs).to.deep.equal([block(used, 'JAVA.1').outputs![1]]);
    expect(block(used, 'JAVA.1').params?.observer).to.equal(undefined);
    // One output, at (42, 39) only: the wire reaches GAIN.9 alone, whose input then reads 0.
    const { netlist } = readIpes(textBytes(withBlocks([...javaBlock('JAVA.1', 40, 40, ['u2'], [''], true), ...wired])));
    expect(block(netlist, 'GAIN.9').inputs).to.deep.equal(['_zero']);
    expect(block(netlist, 'JAVA.1').params?.observer).to.equal(1);
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
