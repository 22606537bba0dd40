// java.util lists in JAVA blocks against the real JDK: a block program (the code sections of a
// GeckoCIRCUITS Java block) that fills, trims, searches and prints ArrayLists of Double and Integer
// runs in the engine and, compiled by javac into the class GeckoCIRCUITS builds from the same
// sections (SourceFileGenerator: fields, init(), calculateYOUT), in the JVM; the printed lines of
// every step must be identical, and a list index error must give the JDK's message. Skipped when
// no JDK (javac, java) is installed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { simulateSync } from '../../src/index.js';
import type { Netlist } from '../../src/formats/netlist.js';
import { thrown } from '../fixtures/thrown.js';

interface BlockCode {
  variables: string;
  initCode: string;
  code: string;
}

const STEPS = 150;
const DT = 1e-6;

const LISTS: BlockCode = {
  variables: [
    'static ArrayList<Double> window = new ArrayList<Double>();',
    'static List<Integer> counts = new ArrayList<>();',
    'static int seed = 12345, step = 0;',
    'static int next() { seed = seed * 1103515245 + 12345; return (seed >>> 16) & 0x7fff; }',
    'static double mean(List<Double> values) { double s = 0; for (double v : values) s += v; return values.isEmpty() ? 0 : s / values.size(); }',
  ].join('\n'),
  initCode: 'window.clear();\ncounts.add(0);',
  code: [
    'step++;',
    'int r = next();',
    'double x = (r % 100) / 8.0 - 3.0;',
    'window.add(x);',
    'if (window.size() > 7) window.remove(0);',
    'if (r % 5 == 0) window.remove(Double.valueOf(x));',
    'if (r % 11 == 0 && !window.isEmpty()) window.set(window.size() - 1, -0.0);',
    'if (r % 13 == 0) window.add(0, Double.NaN);',
    'counts.add(r % 4);',
    'if (counts.size() > 5) counts.remove(Integer.valueOf(counts.get(0)));',
    'if (r % 17 == 0) counts.remove(counts.size() - 1);',
    'int n = 0;',
    'for (Integer c : counts) n += c;',
    'ArrayList<Double> copy = new ArrayList<Double>(window);',
    'if (copy.size() > 2) copy.remove(1);',
    'Double first = copy.isEmpty() ? Double.valueOf(0) : copy.get(0);',
    'System.out.println(step + " " + window + " " + counts + " n=" + n + " mean=" + mean(window) + " copy=" + copy',
    '    + " first=" + first.doubleValue() + " has0=" + window.contains(0.0) + " hasNeg0=" + window.contains(-0.0)',
    '    + " nan@" + window.indexOf(Double.NaN) + " last3@" + counts.lastIndexOf(3) + " int1=" + window.contains(1));',
    'yOUT[0] = window.size();',
    'return yOUT;',
  ].join('\n'),
};

/** The class GeckoCIRCUITS compiles from a block's sections, with a main() calling it `steps` times. */
function javaSource(b: BlockCode, steps: number): string {
  return [
    'import java.util.*;',
    'public class Block {',
    b.variables,
    'private double[] yOUT = new double[1];',
    'public void init() {', b.initCode, '}',
    'public double[] calculateYOUT(final double[] xIN, final double time, final double dt) throws Exception {', b.code, '}',
    'public static void main(String[] args) throws Exception {',
    '  Block block = new Block();',
    '  block.init();',
    `  for (int n = 1; n <= ${steps}; n++) block.calculateYOUT(new double[0], n * ${DT}, ${DT});`,
    '}',
    '}',
  ].join('\n');
}

/** Runs the block in the JVM: its stdout lines and its stderr. */
function runJdk(b: BlockCode, steps: number): { lines: string[]; error: string } {
  const dir = mkdtempSync(join(tmpdir(), 'pesim-jdk-'));
  try {
    writeFileSync(join(dir, 'Block.java'), javaSource(b, steps));
    const javac = spawnSync('javac', ['Block.java'], { cwd: dir, encoding: 'utf8' });
    expect(javac.status, javac.stderr).to.equal(0);
    const java = spawnSync('java', ['-cp', dir, 'Block'], { cwd: dir, encoding: 'utf8' });
    return { lines: java.stdout.split('\n').filter((l) => l !== ''), error: java.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function netlist(b: BlockCode, steps: number): Netlist {
  return {
    settings: { tEnd: steps * DT, dt: DT },
    elements: [{ name: 'R.1', type: 'R', nodes: ['a', '0'], params: { R: 1 } }, { name: 'V.1', type: 'V', nodes: ['a', '0'], params: { waveform: 'dc', value: 1 } }],
    blocks: [
      { name: 'JAVA.1', type: 'JAVA', inputs: [], outputs: ['y'], params: { ...b } },
      { name: 'SCOPE.1', type: 'SCOPE', inputs: ['y'] },
    ],
  };
}

const hasJdk = spawnSync('javac', ['-version']).status === 0 && spawnSync('java', ['-version']).status === 0;

describe('JAVA blocks: java.util lists against the JDK', function () {
  this.timeout(120_000);
  before(function () {
    if (!hasJdk) this.skip();
  });

  it(`prints what the JVM prints at each of ${STEPS} steps (ArrayList / List of Double and Integer)`, () => {
    const jdk = runJdk(LISTS, STEPS);
    expect(jdk.error).to.equal('');
    expect(jdk.lines).to.have.length(STEPS);
    const result = simulateSync(netlist(LISTS, STEPS));
    const printed = result.warnings.filter((w) => w.startsWith('JAVA.1 printed: ')).map((w) => w.slice('JAVA.1 printed: '.length));
    expect(printed).to.deep.equal(jdk.lines);
    // The program reaches every case it tests: NaN and -0.0 elements, removals by value.
    expect(printed.some((l) => l.includes('NaN, '))).to.equal(true);
    expect(printed.some((l) => l.includes('hasNeg0=true'))).to.equal(true);
  });

  it("fails with the JDK's IndexOutOfBoundsException message (CODE_FAILED, with the line)", () => {
    const failing: BlockCode = { ...LISTS, code: LISTS.code.replace('yOUT[0] = window.size();', 'yOUT[0] = window.get(step % 9);') };
    const jdk = runJdk(failing, STEPS);
    const message = /java\.lang\.(IndexOutOfBoundsException: [^\n]*)/.exec(jdk.error)?.[1];
    expect(message, jdk.error).to.match(/^IndexOutOfBoundsException: Index \d+ out of bounds for length \d+$/);
    const e = thrown(() => simulateSync(netlist(failing, STEPS))) as Error & { code: string };
    expect(e.code).to.equal('CODE_FAILED');
    expect(e.message).to.match(new RegExp(`\\(line 20\\): ${message!.replace(/[()]/g, '\\$&')}$`));
  });
});
