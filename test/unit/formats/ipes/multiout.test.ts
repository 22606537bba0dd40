// Control blocks with several outputs in .ipes files: output terminals where the GeckoCIRCUITS
// block classes place them, the mapping of THYRISTOR_CONTROL (063) and SPARSEMATRIX (065, 076),
// the space-vector diagram dropped as display only, and the writer's round trip.
import { expect } from 'chai';
import { readIpes, readIpesText, writeIpes, writeIpesText } from '../../../../src/formats/ipes/index.js';
import { BLOCK_KINDS } from '../../../../src/formats/ipes/catalog.js';
import { controlTerminals } from '../../../../src/formats/ipes/geometry.js';
import type { Netlist } from '../../../../src/formats/netlist.js';
import { block, corpusFixture, edit } from './helpers.js';
import { corpusText, withoutComponent } from './corpus-edit.js';

/** 063 without its Java regression-check block (JAVA.1 only prints a verdict). */
const thyristorText = (): string => withoutComponent(corpusText('063_ThyristorControlBlock.ipes'), 'JAVA.1');

const controlWire = (x: number[], y: number[]): string =>
  `\nverbindungCONTROL (99)\n<Verbindung>\nlabel \nx[] ${x.join(' ')} \ny[] ${y.join(' ')} \nenabledShorted 1\nparentSheetIdentifier 0\nconnectorType 1\n<\\Verbindung>\n`;

describe('ipes multi-output control blocks', () => {
  it('places outputs as the block classes do: x + 2 for THYRISTOR_CONTROL and SPARSEMATRIX, x + 1 for ABCDQ and DQABC', () => {
    const at = (typ: number): { ins: string[]; outs: string[] } => {
      const kind = BLOCK_KINDS[typ];
      const g = controlTerminals(kind, 10, 20, kind.inputs as number, kind.outputs, false);
      return { ins: g.ins.map((p) => `${p.x},${p.y}`), outs: g.outs.map((p) => `${p.x},${p.y}`) };
    };
    expect(at(72)).to.deep.equal({ ins: ['8,20', '8,21'], outs: ['12,20', '12,21', '12,22', '12,23', '12,24', '12,25'] });
    expect(at(65)).to.deep.equal({ ins: ['8,20', '8,21', '8,22', '8,23'], outs: ['11,20', '11,21'] });
    expect(at(66)).to.deep.equal({ ins: ['8,20', '8,21', '8,22'], outs: ['11,20', '11,21', '11,22'] });
    expect(at(59).outs).to.deep.equal(Array.from({ length: 9 }, (_, j) => `12,${20 + j}`));
    expect(at(59).ins).to.have.length(8);
  });

  it('063: THYRISTOR_CONTROL with the firing angle from the touching CONST block and the sync voltage', () => {
    const n = readIpesText(thyristorText(), '063').netlist;
    const control = block(n, 'THYRISTOR_CONTROL.1');
    expect(control.outputs).to.deep.equal(['gt_A1', 'gt_A2', 'gt_A3', 'gt_B1', 'gt_B2', 'gt_B3']);
    expect(control.params).to.deep.equal({ onTime: 4e-3, initFreq: 50, phaseShift: 30 });
    expect(control.inputs![0]).to.equal(block(n, 'CONST.2').outputs![0]);
    expect(block(n, 'CONST.2').params).to.deep.equal({ value: 30 });
    expect(control.inputs![1]).to.equal('syncr');
    expect(block(n, 'GATE.2').inputs).to.deep.equal(['gt_B3']);
  });

  it('063: an output connected by a wire instead of a label reaches the gate block (first and sixth output row)', () => {
    let text = thyristorText();
    text = edit(text, 'labelEndKnoten[] /gt_A1/gt_A2/gt_A3/gt_B1/gt_B2/gt_B3\n', 'labelEndKnoten[] /NIX_NIX_NIX/gt_A2/gt_A3/gt_B1/gt_B2/NIX_NIX_NIX\n');
    text = controlWire([16, 17, 18, 19, 20], [23, 23, 23, 23, 23]) + controlWire([16, 17, 18, 19, 20], [28, 28, 28, 28, 28]) + text;
    const n = readIpesText(text, '063').netlist;
    const control = block(n, 'THYRISTOR_CONTROL.1');
    expect(control.outputs![0]).to.equal(block(n, 'GATE.1').inputs![0]);
    expect(control.outputs![5]).to.equal(block(n, 'GATE.2').inputs![0]);
  });

  it('065: SPARSEMATRIX with its eight inputs (phi2 unconnected reads 0) and nine switching outputs', () => {
    const n = readIpes(corpusFixture('065_UltraSparseMatrixConverter.ipes'), '065').netlist;
    const modulator = block(n, 'SPARSEMATRIX.2');
    expect(modulator.inputs!.slice(0, 7)).to.deep.equal(['fDR', 'un1', 'un2', 'un3', 'uNmax', 'uLmax', 'fL']);
    expect(block(n, modulator.inputs![7]).params).to.deep.equal({ value: 0 });
    expect(modulator.outputs).to.deep.equal(['s1p', 's2p', 's3p', 's1m', 's2m', 's3m', 'sA', 'sB', 'sC']);
  });

  it('076: the space-vector diagram (SV, typ 63) is display only and dropped with a warning', () => {
    const r = readIpes(corpusFixture('076_UltraSparseMatrixConverter.ipes'), '076');
    expect(r.warnings).to.include('SV.1: space-vector diagram block ignored (it does not affect the simulation)');
    expect((r.netlist.blocks ?? []).some((b) => b.name === 'SV.1')).to.equal(false);
    expect(writeIpesText(r.netlist)).to.include('\nidStringDialog SV.1\n');
  });

  for (const [name, text] of [
    ['063 (without JAVA.1)', thyristorText],
    ['065', () => corpusText('065_UltraSparseMatrixConverter.ipes')],
    ['076', () => corpusText('076_UltraSparseMatrixConverter.ipes')],
  ] as const) {
    it(`${name}: read → write → read gives the same netlist`, () => {
      const first = readIpesText(text(), name).netlist;
      const second = readIpes(writeIpes(first), name).netlist;
      expect(second).to.deep.equal(first);
    });
  }

  it('writes a netlist without layout on a grid and reads the same multi-output connections back', () => {
    const signals = (prefix: string, count: number): string[] => Array.from({ length: count }, (_, i) => `${prefix}${i + 1}`);
    const n: Netlist = {
      settings: { tEnd: 1e-3, dt: 1e-6 },
      elements: [{ name: 'R.1', type: 'R', nodes: ['a', '0'], params: { R: 1 } }],
      blocks: [
        { name: 'TIME.1', type: 'TIME', outputs: ['t'] },
        { name: 'ABCDQ.1', type: 'ABCDQ', inputs: ['t', 't', 't', 't'], outputs: ['d', 'q'] },
        { name: 'DQABC.1', type: 'DQABC', inputs: ['d', 'q', 't'], outputs: ['pa', 'pb', 'pc'] },
        { name: 'THYRISTOR_CONTROL.1', type: 'THYRISTOR_CONTROL', inputs: ['pa', 'pb'], outputs: signals('g', 6), params: { onTime: 1e-3, initFreq: 60, phaseShift: 0 } },
        { name: 'SPARSEMATRIX.1', type: 'SPARSEMATRIX', inputs: ['t', 'pa', 'pb', 'pc', 'd', 'q', 'g1', 'g2'], outputs: signals('s', 9) },
        { name: 'SCOPE.1', type: 'SCOPE', inputs: [...signals('g', 6), ...signals('s', 9)] },
      ],
    };
    const back = readIpesText(writeIpesText(n)).netlist;
    expect(back.blocks!.filter((b) => b.type !== 'SCOPE')).to.deep.equal(n.blocks!.filter((b) => b.type !== 'SCOPE'));
    expect(block(back, 'THYRISTOR_CONTROL.1').params).to.deep.equal({ onTime: 1e-3, initFreq: 60, phaseShift: 0 });
  });
});
