// Mutated Java code (the Java blocks of the GeckoCIRCUITS corpus with characters deleted,
// duplicated or replaced, seeded) never crashes the process: every run either completes or fails
// with CODE_INVALID / CODE_FAILED (or another engine code) and a message. Bounded: 400 variants of
// 40 steps each.
import { expect } from 'chai';
import { simulateSync } from '../../src/index.js';
import type { ControlBlock, Netlist } from '../../src/formats/netlist.js';
import { readIpes } from '../../src/formats/ipes/index.js';
import { mulberry32 } from '../fixtures/prng.js';
import { corpusFixture } from '../unit/formats/ipes/helpers.js';

const SEED = 20261124;
const PIECES = ['(', ')', '{', '}', '[', ']', ';', '=', '/', '0', '1e400', 'xIN', 'yOUT', 'new double[-1]', 'while(true)', '"', "'", '.', 'int', '++', '/*'];

function javaBlocks(): ControlBlock[] {
  const files = ['019_outputstagemodel.ipes', '025_Swiss_Rect.ipes', '033_indirect_matrix_java_with_PMSM_control.ipes', '035_NPCmodel.ipes', '043_OpAmp.ipes', '029_BuckBoost_thermal_with_java.ipes'];
  return files.flatMap((f) => readIpes(corpusFixture(f), f).netlist.blocks!.filter((b) => b.type === 'JAVA'));
}

function mutate(text: string, random: () => number): string {
  let s = text;
  const edits = 1 + Math.floor(random() * 4);
  for (let k = 0; k < edits; k++) {
    const at = Math.floor(random() * (s.length + 1));
    const choice = random();
    if (choice < 0.35) s = s.slice(0, at) + s.slice(at + 1 + Math.floor(random() * 8));
    else if (choice < 0.7) s = s.slice(0, at) + PIECES[Math.floor(random() * PIECES.length)] + s.slice(at);
    else s = s.slice(0, at) + s.slice(at, at + 20) + s.slice(at);
  }
  return s;
}

describe('JAVA blocks: mutated code never crashes', function () {
  this.timeout(300_000);

  it(`400 mutated corpus Java blocks each run or fail with an engine code (seed ${SEED})`, () => {
    const random = mulberry32(SEED);
    const blocks = javaBlocks();
    const codes = new Map<string, number>();
    for (let n = 0; n < 400; n++) {
      const original = blocks[n % blocks.length];
      const params = { ...original.params };
      const key = random() < 0.75 || params.variables === undefined ? 'code' : 'variables';
      params[key] = mutate(String(params[key] ?? ''), random);
      const inputs = (original.inputs ?? []).map((_, i) => `in${i}`);
      const netlist: Netlist = {
        settings: { tEnd: 40e-6, dt: 1e-6, maxPoints: 100 },
        elements: [{ name: 'R.1', type: 'R', nodes: ['a', '0'], params: { R: 1 } }, { name: 'V.1', type: 'V', nodes: ['a', '0'], params: { waveform: 'dc', value: 1 } }],
        blocks: [
          ...inputs.map((s, i) => ({ name: `SRC.${i}`, type: 'SIGNAL' as const, outputs: [s], params: { waveform: 'sine' as const, amplitude: 1, frequency: 1e3 } })),
          { ...original, name: 'JAVA.1', inputs, params },
          { name: 'SCOPE.1', type: 'SCOPE', inputs: [...(original.outputs ?? [])] },
        ],
      };
      let code = 'ok';
      try {
        simulateSync(netlist);
      } catch (error) {
        const e = error as Error & { code?: string };
        expect(e.code, e.message).to.be.a('string');
        expect(e.message.length).to.be.greaterThan(10);
        code = e.code!;
      }
      codes.set(code, (codes.get(code) ?? 0) + 1);
    }
    console.log(`      outcomes: ${[...codes].map(([c, k]) => `${c} ${k}`).join(', ')}`);
    expect(codes.get('CODE_INVALID')).to.be.greaterThan(50);
    expect(codes.get('ok')).to.be.greaterThan(20);
  });
});
