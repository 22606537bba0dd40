// The whole GeckoCIRCUITS example corpus (test/fixtures/gecko-corpus, 50 files): every file either
// simulates to its own tDURATION or is refused with one UNSUPPORTED_COMPONENTS error that names
// its components and why. Files longer than STEP_CAP steps run the first STEP_CAP steps in this
// test (the full runs take minutes); PESIM_CORPUS_FULL=1 runs every file to its tDURATION.
// The count of simulating files is printed and must not fall below MIN_SIMULATING.
import { readdirSync } from 'node:fs';
import { expect } from 'chai';
import { simulateSync } from '../../../../src/engine/index.js';
import { NetlistError } from '../../../../src/formats/errors.js';
import { readIpes } from '../../../../src/formats/ipes/index.js';
import { corpusFixture } from './helpers.js';

const MIN_SIMULATING = 41;
const STEP_CAP = process.env.PESIM_CORPUS_FULL === '1' ? Infinity : 250_000;

type Outcome =
  | { file: string; kind: 'simulated'; steps: number; shortened: boolean; ms: number }
  | { file: string; kind: 'refused'; components: string[]; message: string }
  | { file: string; kind: 'failed'; code: string; message: string };

function runFile(file: string): Outcome {
  const started = performance.now();
  try {
    const { netlist } = readIpes(corpusFixture(file), file);
    const { tEnd, dt } = netlist.settings;
    const steps = Math.round(tEnd / dt);
    const shortened = steps > STEP_CAP;
    const settings = { ...netlist.settings, maxPoints: 2000, ...(shortened ? { tEnd: STEP_CAP * dt } : {}) };
    const result = simulateSync({ ...netlist, settings });
    // GeckoCIRCUITS' last step: at most one step before tEnd (helpers.ts, geckoSteps).
    const end = result.time[result.time.length - 1];
    expect(end, `${file}: end time`).to.be.within(settings.tEnd - dt * (1 + 1e-6), settings.tEnd + dt * 1e-6);
    return { file, kind: 'simulated', steps: result.stats.steps, shortened, ms: performance.now() - started };
  } catch (error) {
    const e = error as NetlistError & { code?: string };
    if (e instanceof NetlistError && e.code === 'UNSUPPORTED_COMPONENTS') {
      return { file, kind: 'refused', components: e.details.map((d) => d.component ?? d.field ?? ''), message: e.message };
    }
    return { file, kind: 'failed', code: String(e.code ?? e.name), message: e.message };
  }
}

describe('GeckoCIRCUITS example corpus (50 files)', function () {
  this.timeout(900_000);
  const files = readdirSync(new URL('../../../fixtures/gecko-corpus/', import.meta.url)).filter((f) => f.endsWith('.ipes')).sort();
  const outcomes: Outcome[] = [];

  before(() => {
    for (const file of files) outcomes.push(runFile(file));
    const simulated = outcomes.filter((o) => o.kind === 'simulated').length;
    const lines = outcomes.map((o) =>
      o.kind === 'simulated'
        ? `  simulated ${o.file} (${o.steps} steps${o.shortened ? ', shortened' : ''}, ${o.ms.toFixed(0)} ms)`
        : o.kind === 'refused'
          ? `  refused   ${o.file}: ${o.message.slice(0, 160)}`
          : `  FAILED    ${o.file} [${o.code}]: ${o.message.slice(0, 160)}`);
    console.log(`    corpus: ${simulated} of ${files.length} files simulate\n${lines.join('\n')}`);
  });

  it('has the 50 files', () => {
    expect(files).to.have.length(50);
  });

  it(`simulates at least ${MIN_SIMULATING} files to their end time`, () => {
    expect(outcomes.filter((o) => o.kind === 'simulated').length).to.be.at.least(MIN_SIMULATING);
  });

  it('refuses every other file with one UNSUPPORTED_COMPONENTS error naming its components', () => {
    const failed = outcomes.filter((o) => o.kind === 'failed');
    expect(failed.map((o) => `${o.file}: ${o.kind === 'failed' ? o.message : ''}`)).to.deep.equal([]);
    for (const o of outcomes) {
      if (o.kind !== 'refused') continue;
      expect(o.components.length, o.file).to.be.greaterThan(0);
      for (const name of o.components) expect(o.message, o.file).to.contain(name);
    }
  });
});
