// The Java subset against the real JDK: every program of test/fixtures/java/ (a class with a main
// method, one feature area each) runs through javac/java and through pesim's Java implementation,
// and prints the same lines; a program whose main throws fails in pesim with the same exception
// and message. In pesim the class body is a JAVA block's fields and methods and its init code
// calls main. Skipped when no JDK (javac, java) is installed.
import { expect } from 'chai';
import { simulateSync } from '../../src/index.js';
import type { Netlist } from '../../src/formats/netlist.js';
import { classBody, hasJdk, javaPrograms, runOnJdk, type JavaProgram, type ProgramOutcome } from '../fixtures/java/jdk-runner.js';

const PREFIX = 'JAVA.1 printed: ';

function netlist(p: JavaProgram): Netlist {
  return {
    settings: { tEnd: 1e-6, dt: 1e-6 },
    elements: [{ name: 'R.1', type: 'R', nodes: ['a', '0'], params: { R: 1 } }, { name: 'V.1', type: 'V', nodes: ['a', '0'], params: { waveform: 'dc', value: 1 } }],
    blocks: [
      { name: 'JAVA.1', type: 'JAVA', inputs: [], outputs: ['y'], params: { variables: classBody(p), initCode: 'main(new String[0]);', code: 'return yOUT;' } },
      { name: 'SCOPE.1', type: 'SCOPE', inputs: ['y'] },
    ],
  };
}

function runOnPesim(p: JavaProgram): ProgramOutcome {
  try {
    const result = simulateSync(netlist(p));
    return { lines: result.warnings.filter((w) => w.startsWith(PREFIX)).map((w) => w.slice(PREFIX.length)), exception: '' };
  } catch (e) {
    const message = (e as Error).message;
    const failed = /the Java code failed at t = [^:]*: (.*)$/s.exec(message);
    if (!failed) throw e;
    return { lines: [], exception: failed[1] };
  }
}

const programs = javaPrograms();

describe('The Java subset against the JDK (test/fixtures/java)', function () {
  this.timeout(300_000);
  let jdk = new Map<string, ProgramOutcome>();
  before(function () {
    if (!hasJdk) this.skip();
    jdk = runOnJdk(programs);
  });

  it('has at least 60 programs', () => {
    expect(programs.length).to.be.at.least(60);
  });

  for (const p of programs) {
    it(`${p.name}: prints what the JVM prints`, () => {
      const expected = jdk.get(p.name);
      expect(expected, `the JVM ran ${p.name}`).to.not.equal(undefined);
      const actual = runOnPesim(p);
      if (expected!.exception !== '') {
        expect(actual.exception, 'the uncaught exception').to.equal(expected!.exception);
      } else {
        expect(actual.exception, 'no uncaught exception').to.equal('');
        expect(actual.lines).to.deep.equal(expected!.lines);
      }
    });
  }
});
