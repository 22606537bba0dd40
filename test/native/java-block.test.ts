// The JAVA control block (GeckoCIRCUITS Java blocks) through the addon: a Java PWM with a PI
// voltage loop drives a buck converter to its reference; compile errors name block, section, line
// and column (CODE_INVALID); run-time exceptions the line and time (CODE_FAILED); an observer
// block's failure is a warning; printed lines reach the run's warnings.
import { expect } from 'chai';
import { simulateSync } from '../../src/index.js';
import type { ControlBlock, Netlist } from '../../src/formats/netlist.js';
import { buck } from '../fixtures/circuits.js';
import { thrown } from '../fixtures/thrown.js';

/** The buck of the fixtures (48 V, R 5 Ω) with its gate signal `g` from a Java block. */
function javaBuck(java: Partial<ControlBlock>): Netlist {
  const n = buck({ tEnd: 10e-3, dt: 200e-9, vf: 0, ron: 1e-3 });
  const blocks = (n.blocks ?? []).filter((b) => b.name !== 'SIGNAL.1');
  return { ...n, blocks: [{ name: 'JAVA.1', type: 'JAVA', inputs: ['vout'], outputs: ['g'], params: {}, ...java }, ...blocks] };
}

const mean = (values: Float64Array, from: number): number => {
  const tail = values.slice(from);
  return tail.reduce((a, b) => a + b, 0) / tail.length;
};

describe('JAVA control block (GeckoCIRCUITS Java blocks)', function () {
  this.timeout(60_000);

  it('a Java PWM at duty 0.25 gives the buck Vout = D·Vin = 12 V (ideal devices, within 1 %)', () => {
    const r = simulateSync(javaBuck({ params: {
      variables: 'private double phase = 0;\nstatic final double F = 20e3, D = 0.25;',
      code: 'phase += F * dt;\nif (phase >= 1) phase -= 1;\nyOUT[0] = phase < D ? 1 : 0;\nreturn yOUT;',
    } }));
    const v = r.signals['SCOPE.1.ch1'];
    expect(mean(v, Math.floor(v.length * 0.8))).to.be.closeTo(12, 0.12);
  });

  it('a Java PI voltage loop with its own carrier regulates Vout to 20 V (within 1 %)', () => {
    const r = simulateSync(javaBuck({ params: {
      variables: 'double integral = 0, carrier = 0;\nstatic double clamp(double x) { return Math.max(0, Math.min(1, x)); }',
      initCode: 'integral = 0.3;',
      code: [
        'double error = 20.0 - xIN[0];',
        'integral = clamp(integral + 40.0 * error * dt);',
        'double duty = clamp(integral + 0.01 * error);',
        'carrier += 20e3 * dt; if (carrier >= 1) carrier -= 1;',
        'yOUT[0] = carrier < duty ? 1 : 0;',
        'return yOUT;',
      ].join('\n'),
    } }));
    const v = r.signals['SCOPE.1.ch1'];
    expect(mean(v, Math.floor(v.length * 0.8))).to.be.closeTo(20, 0.2);
  });

  it('refuses code that does not compile: CODE_INVALID naming block, section, line and column', () => {
    const e = thrown(() => simulateSync(javaBuck({ params: { code: 'double d = 0.5;\nyOUT[0] = d +;\nreturn yOUT;' } }))) as Error & { code: string; element: string };
    expect(e.code).to.equal('CODE_INVALID');
    expect(e.element).to.equal('JAVA.1');
    expect(e.message).to.equal("JAVA.1: Java code line 2, column 14: expected a value, found ';'");
  });

  it('fails a run whose code throws: CODE_FAILED with the line and the time', () => {
    const e = thrown(() => simulateSync(javaBuck({ params: {
      variables: 'int n = 0;',
      code: 'n++;\ndouble[] a = new double[3];\nif (n == 50) a[n] = 1;\nreturn yOUT;',
    } }))) as Error & { code: string; time: number };
    expect(e.code).to.equal('CODE_FAILED');
    expect(e.message).to.match(/^JAVA\.1: the Java code failed at t = 1e-05 s \(line 3\): ArrayIndexOutOfBoundsException: Index 50 out of bounds for length 3$/);
    expect(e.time).to.be.closeTo(50 * 200e-9, 1e-12);
  });

  it('fails a run whose outputs end a step with NaN (an output set to NaN and then to a number does not)', () => {
    const e = thrown(() => simulateSync(javaBuck({ outputs: ['g', 'aux'], params: {
      variables: 'int n = 0;',
      code: 'n++;\ndouble d = xIN[0];\nyOUT[0] = 0.5;\nyOUT[1] = Double.NaN;\nif (n != 30) yOUT[1] = d;\nreturn yOUT;',
    } }))) as Error & { code: string; time: number };
    expect(e.code).to.equal('CODE_FAILED');
    expect(e.message).to.match(/^JAVA\.1: the Java code failed at t = 6e-0?6 s: ArithmeticException: output value yOUT\[1\] is not a number$/);
    expect(e.time).to.be.closeTo(30 * 200e-9, 1e-12);
  });

  it('an observer (outputs feed nothing) that fails only warns; printed lines are warnings', () => {
    const n = javaBuck({ params: { code: 'yOUT[0] = time < 2e-3 ? 1 : 0; return yOUT;' } });
    n.blocks!.push({ name: 'CHECK.1', type: 'JAVA', inputs: ['vout'], outputs: ['unused'], params: {
      observer: 1, variables: 'boolean said = false;',
      code: 'if (!said && time > 1e-3) { System.out.println("vout = " + (xIN[0] > 1 ? "up" : "down")); said = true; }\nif (time > 5e-3) { int z = 0; z = 1 / z; }\nreturn yOUT;',
    } });
    const r = simulateSync(n);
    expect(r.warnings).to.include('CHECK.1 printed: vout = up');
    expect(r.warnings.some((w) => /^CHECK\.1: the Java code failed at t = 0\.005.*\/ by zero; its outputs feed nothing, so the block stopped there$/.test(w))).to.equal(true);
  });

  it('an observer whose plain arithmetic code fails (int division by zero) warns and stops; the run goes on', () => {
    const n = javaBuck({ params: { code: 'yOUT[0] = time < 2e-3 ? 1 : 0; return yOUT;' } });
    n.blocks!.push({ name: 'CHECK.1', type: 'JAVA', inputs: ['vout'], outputs: ['unused'], params: {
      observer: 1,
      code: 'int k = (int) xIN[0];\nint z = time > 5e-3 ? 0 : 1;\nyOUT[0] = k / z;\nreturn yOUT;',
    } });
    const r = simulateSync(n);
    expect(r.warnings.filter((w) => w.startsWith('CHECK.1'))).to.have.length(1);
    expect(r.warnings.some((w) => /^CHECK\.1: the Java code failed at t = 0\.005.* \(line 3\): ArithmeticException: \/ by zero; its outputs feed nothing, so the block stopped there$/.test(w))).to.equal(true);
  });

  it('a returned array field is the array the field held at the return, even when finally reassigns the field', () => {
    const n = javaBuck({ params: { code: 'yOUT[0] = 0.25; return yOUT;' } });
    n.blocks!.push({ name: 'CHECK.1', type: 'JAVA', inputs: ['vout'], outputs: ['unused'], params: {
      observer: 1,
      variables: 'double[] high = {1}, low = {0};\nint n = 0;\ndouble[] pick() { try { return high; } finally { high = low; } }',
      code: 'n++;\ndouble[] r = pick();\nif (n <= 2) System.out.println("step " + n + ": " + r[0]);\nreturn yOUT;',
    } });
    const r = simulateSync(n);
    expect(r.warnings).to.include.members(['CHECK.1 printed: step 1: 1.0', 'CHECK.1 printed: step 2: 0.0']);
  });
});
