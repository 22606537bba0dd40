// Reader behaviour beyond the example files: containers, wire geometry rules, global parameters,
// disabled and shorted components, unsupported components and syntax errors with line numbers.
import { deflateSync } from 'node:zlib';
import { expect } from 'chai';
import { decodeIpes, readIpes } from '../../../../src/formats/ipes/index.js';
import { resolveNetlist } from '../../../../src/formats/netlist.js';
import { block, edit, element, fixture, fixtureText, netlistError, textBytes } from './helpers.js';

interface Part { name: string; x: number; y: number; in: string; out: string }

/** A hand-made plain-text .ipes: resistors (orientation 503: XIN at y−2, YOUT at y+2) and wires. */
function schematic(parts: Part[], wires: Array<Array<[number, number]>>): string {
  const lines: string[] = [];
  wires.forEach((points, i) => lines.push(`verbindungLK  (${i})`, '<Verbindung>', 'label NIX_NIX_NIX',
    `x[] ${points.map((p) => p[0]).join(' ')} `, `y[] ${points.map((p) => p[1]).join(' ')} `, 'connectorType 0', '<\\Verbindung>'));
  parts.forEach((p, i) => lines.push(`e (${i})`, '<ElementLK>', `labelAnfangsKnoten[] /${p.in || 'NIX_NIX_NIX'}`,
    `labelEndKnoten[] /${p.out || 'NIX_NIX_NIX'}`, 'typ 1', `x ${p.x}`, `y ${p.y}`, 'parameter[] 100.0 ', 'orientierung 503',
    `idStringDialog ${p.name}`, '<\\ElementLK>'));
  lines.push('tDURATION 0.001', 'dt 1.0E-6', 'solverType 1');
  return lines.join('\n');
}

const line = (from: [number, number], to: [number, number]): Array<[number, number]> => {
  const points: Array<[number, number]> = [];
  const steps = Math.max(Math.abs(to[0] - from[0]), Math.abs(to[1] - from[1]));
  for (let k = 0; k <= steps; k++) {
    points.push([from[0] + Math.sign(to[0] - from[0]) * k, from[1] + Math.sign(to[1] - from[1]) * k]);
  }
  return points;
};

describe('ipes reader', () => {
  it('reads gzip, raw zlib and plain text containers into the same netlist', () => {
    const gzip = fixture('buck_simple.ipes');
    const text = fixtureText('buck_simple.ipes');
    const zlib = deflateSync(Buffer.from(text, 'utf-8'));
    expect(decodeIpes(gzip).container).to.equal('gzip');
    expect(decodeIpes(zlib).container).to.equal('zlib');
    expect(decodeIpes(textBytes(text)).container).to.equal('text');
    const expected = readIpes(gzip, 'buck_simple.ipes').netlist;
    expect(readIpes(zlib, 'buck_simple.ipes').netlist).to.deep.equal(expected);
    expect(readIpes(textBytes(text.replace(/\n/g, '\r\n')), 'buck_simple.ipes').netlist).to.deep.equal(expected);
    expect(element(expected, 'U.1').params!.value).to.equal(48);
  });

  it('joins T-junctions and terminals touching a wire, but not wires that merely cross', () => {
    const tBranch = [...line([15, 8], [15, 4]), ...line([16, 4], [30, 4]), ...line([30, 5], [30, 8])];
    const text = schematic([
      { name: 'R.1', x: 10, y: 10, in: '', out: '0' },
      { name: 'R.2', x: 20, y: 10, in: '', out: '0' },
      { name: 'R.3', x: 30, y: 10, in: '', out: '0' },
      { name: 'R.4', x: 12, y: 12, in: '', out: '0' },
      { name: 'R.5', x: 17, y: 10, in: '', out: 'top' },
    ], [line([10, 8], [20, 8]), tBranch, line([12, 6], [12, 10])]);
    const { netlist: n } = readIpes(textBytes(text), 'geometry.ipes');
    const node = (name: string, i: number): string => element(n, name).nodes[i];
    expect(node('R.1', 0)).to.match(/^n\d+$/);
    expect(node('R.2', 0)).to.equal(node('R.1', 0)); // wire ends on both terminals
    expect(node('R.3', 0)).to.equal(node('R.1', 0)); // T-junction: a wire end on another wire
    expect(node('R.5', 0)).to.equal(node('R.1', 0)); // a terminal on a wire's interior point
    expect(node('R.4', 0)).to.not.equal(node('R.1', 0)); // crossing wires stay apart
    expect(node('R.5', 1)).to.equal('top');
    expect(n.settings).to.deep.equal({ tEnd: 0.001, dt: 1e-6, solver: 'trapezoidal', dampAfterSwitch: false, timing: 'gecko' });
  });

  it('binds parameters to global parameters (nameOpt slots and named $ParameterName lines)', () => {
    let old = fixtureText('buck_simple.ipes');
    old = edit(old, 'optimizerName[] \n', 'optimizerName[] /$Rload/$Vin\n');
    old = edit(old, 'optimizerValue[]  \n', 'optimizerValue[] 5.0 24.0 \n');
    old = edit(old, 'nameOpt[] /NIX_NIX_NIX/NIX_NIX_NIX/NIX_NIX_NIX\norientierung 503\nidStringDialog R.1',
      'nameOpt[] /$Rload/NIX_NIX_NIX/NIX_NIX_NIX\norientierung 503\nidStringDialog R.1');
    const n = readIpes(textBytes(old), 'buck.ipes').netlist;
    expect(n.parameters).to.deep.equal({ Rload: 5, Vin: 24 });
    expect(element(n, 'R.1').params).to.deep.equal({ R: '$Rload' });
    expect(element(resolveNetlist(n), 'R.1').params!.R).to.equal(5);

    let modern = fixtureText('BuckBoost_const_dutyCycle.ipes');
    modern = edit(modern, 'optimizerName[] \n', 'optimizerName[] /$Vin\n');
    modern = edit(modern, 'optimizerValue[]  \n', 'optimizerValue[] 30.0 \n');
    modern = edit(modern, 'dcValue 20.0\n', 'dcValue$ParameterName $Vin\ndcValue 20.0\n');
    const m = readIpes(textBytes(modern), 'bb.ipes').netlist;
    expect(element(m, 'U.1').params).to.deep.equal({ waveform: 'dc', value: '$Vin' });
    expect(element(resolveNetlist(m), 'U.1').params!.value).to.equal(30);

    const undefinedGlobal = edit(fixtureText('BuckBoost_const_dutyCycle.ipes'), 'dcValue 20.0\n', 'dcValue$ParameterName $Vx\ndcValue 20.0\n');
    const error = netlistError(() => readIpes(textBytes(undefinedGlobal), 'bb.ipes'));
    expect(error.code).to.equal('UNKNOWN_REFERENCE');
    expect(error.details[0].component).to.equal('U.1');
  });

  it('drops disabled components and replaces shorted ones by a connection, with warnings', () => {
    let text = fixtureText('buck_simple.ipes');
    text = edit(text, 'enabledShorted 1\ntyp 1\n', 'enabledShorted 0\ntyp 1\n'); // R.1 disabled
    text = edit(text, 'enabledShorted 1\ntyp 6\n', 'enabledShorted 2\ntyp 6\n'); // D.1 shorted
    const { netlist: n, warnings } = readIpes(textBytes(text), 'buck.ipes');
    expect(n.elements.map((e) => e.name)).to.deep.equal(['U.1', 'S.1', 'L.1', 'C.1']);
    // D.1 shorted: its anode (label 0) and cathode (label 2) are one node, the reference.
    expect(element(n, 'S.1').nodes).to.deep.equal(['1', '0']);
    expect(element(n, 'L.1').nodes).to.deep.equal(['0', '3']);
    expect(warnings.some((w) => w.startsWith('R.1: disabled'))).to.equal(true);
    expect(warnings.some((w) => w.startsWith('D.1: shorted'))).to.equal(true);
    // Both stay in the file when it is written back.
    expect((n.layout!.ipes as { inactive: string[][] }).inactive.map((lines) => lines.find((l) => l.startsWith('idStringDialog')))).to.deep.equal([
      'idStringDialog D.1', 'idStringDialog R.1']);
  });

  it('lists every component the engine cannot simulate in one error', () => {
    const thermal = ['eTH (0)', '<ElementTHERM>', 'labelAnfangsKnoten[] /t1', 'labelEndKnoten[] /t0', 'enabledShorted 1', 'typ 42',
      'x 30', 'y 30', 'parameter[] 1.0 ', 'orientierung 503', 'idStringDialog MOD.1', '<\\ElementTHERM>'];
    const java = ['c (20)', '<ElementCONTROL>', 'labelAnfangsKnoten[] /u1', 'labelEndKnoten[] /jo', 'enabledShorted 1', 'typ 61',
      'x 40', 'y 40', 'orientierung 503', 'idStringDialog JAVA.1', 'useMatrix true', '<\\ElementCONTROL>'];
    const mux = ['c (21)', '<ElementCONTROL>', 'labelAnfangsKnoten[] /jo/u1', 'labelEndKnoten[] /bus', 'enabledShorted 1', 'typ 84',
      'x 40', 'y 44', 'parameter[] ', 'orientierung 503', 'idStringDialog MUX.1', '<\\ElementCONTROL>'];
    const text = edit(fixtureText('buck_simple.ipes'), 'thermANZAHL 0\n', [...thermal, ...java, ...mux, 'thermANZAHL 0', ''].join('\n'));
    const error = netlistError(() => readIpes(textBytes(text), 'buck.ipes'));
    expect(error.code).to.equal('UNSUPPORTED_COMPONENTS');
    // The Java block has matrix terminals, refused when its code is read.
    expect(error.details.map((d) => d.component)).to.deep.equal(['MOD.1', 'MUX.1', 'JAVA.1']);
    expect(error.details[0].message).to.match(/thermal module/);
    expect(error.details[1].message).to.match(/MUX: bundles scalar signals into one vector signal/);
    expect(error.details[2].message).to.match(/Java block with matrix \(bus\) terminals/);
    expect(error.message).to.match(/3 component\(s\) the engine cannot simulate/);
  });

  it('reports syntax errors with their line number', () => {
    const text = fixtureText('buck_simple.ipes');
    const bad = edit(text, 'x 20\ny 6\n', 'x twenty\ny 6\n');
    const badLine = bad.split('\n').indexOf('x twenty') + 1;
    const error = netlistError(() => readIpes(textBytes(bad), 'buck.ipes'));
    expect(error.code).to.equal('IPES_SYNTAX');
    expect(error.details[0].line).to.equal(badLine);
    expect(error.message).to.equal(`buck.ipes:${badLine}: x: 'twenty' is not a number`);

    const cut = text.slice(0, text.indexOf('idStringDialog C.1'));
    const open = netlistError(() => readIpes(textBytes(cut)));
    expect(open.details[0].line).to.equal(cut.split('\n').lastIndexOf('e (4)') + 1);
    expect(open.message).to.match(/no closing <\\ElementLK>/);

    const notIpes = netlistError(() => readIpes(textBytes('hello\nworld\n')));
    expect(notIpes.code).to.equal('IPES_SYNTAX');
  });

  it('converts SIGNAL phases: radians in old files, −φ for sine and rectangle, 90° − φ for triangle', () => {
    let text = fixtureText('buck_simple.ipes');
    // Old (FileVersion 160) SIGNAL blocks store the phase in radians: π/2 → 90°.
    text = edit(text, 'parameter[] 404.0 1.0 35000.0 0.0 0.0 0.4 0.0 1.0 ', 'parameter[] 402.0 2.0 50.0 0.5 1.5707963267948966 0.4 0.0 1.0 ');
    text = edit(text, 'typQuelle 404\n', 'typQuelle 402\n');
    text = edit(text, 'phase 0.0\n', 'phase 1.5707963267948966\n');
    text = edit(text, 'amplitudeAC 1.0\n', 'amplitudeAC 2.0\n');
    text = edit(text, 'frequenz 35000.0\n', 'frequenz 50.0\n');
    text = edit(text, 'anteilDC 0.0\n', 'anteilDC 0.5\n');
    const n = readIpes(textBytes(text)).netlist;
    expect(block(n, 'SIGNAL.1').params).to.deep.equal({ waveform: 'sine', amplitude: 2, frequency: 50, offset: 0.5, phase: -90 });
  });

  it('reads the first number of a value line, as GeckoCIRCUITS does, and ignores the rest', () => {
    let text = fixtureText('BuckBoost_const_dutyCycle.ipes');
    text = edit(text, 'forwardVoltageDrop 0.6\n', 'forwardVoltageDrop 0.75 0.6 0.6\n');
    text = edit(text, 'dcValue 20.0\n', 'dcValue  30.0 20.0\n');
    const n = readIpes(textBytes(text)).netlist;
    expect(element(n, 'D.1').params!.vf).to.equal(0.75);
    expect(element(n, 'U.1').params!.value).to.equal(30);
    const bad = netlistError(() => readIpes(textBytes(edit(text, 'dcValue  30.0 20.0\n', 'dcValue thirty 20.0\n'))));
    expect(bad.message).to.match(/dcValue: 'thirty' is not a number/);
  });

  it('gives a SIGNAL external-parameter terminals only when its useExternal flag is set', () => {
    // Files before 1.60 save five input labels even with useExternal off (parameter[6] = 0).
    const text = edit(fixtureText('buck_simple.ipes'), 'labelAnfangsKnoten[] \nlabelEndKnoten[] /gate\n',
      'labelAnfangsKnoten[] /NIX_NIX_NIX/NIX_NIX_NIX/NIX_NIX_NIX/NIX_NIX_NIX/NIX_NIX_NIX\nlabelEndKnoten[] /gate\n');
    const n = readIpes(textBytes(text)).netlist;
    expect(block(n, 'SIGNAL.1').params).to.deep.include({ waveform: 'rectangle', frequency: 35000, duty: 0.4 });
    // With the flag on, the five terminals exist and unconnected ones read 0 (frequency 0 is refused).
    const on = edit(text, 'parameter[] 404.0 1.0 35000.0 0.0 0.0 0.4 0.0 1.0 ', 'parameter[] 404.0 1.0 35000.0 0.0 0.0 0.4 1.0 1.0 ');
    expect(netlistError(() => readIpes(textBytes(on))).details[0].message).to.match(/frequency input is 0/);
  });
});
