// GeckoCIRCUITS triangles with duty 1 or 0 (sawtooth ramps) → the engine's sawtooth, and back.
import { expect } from 'chai';
import { readIpes, writeIpesText } from '../../../../src/formats/ipes/index.js';
import { block, edit, fixtureText, netlistError, textBytes } from './helpers.js';

/** GeckoCIRCUITS' stepwise triangle (SignalCalculatorTriangle, phase 0): output after `steps` steps. */
function geckoTriangle(A: number, D: number, f: number, duty: number, dt: number, steps: number): number {
  let y = 0;
  let rising = true;
  for (let k = 0; k < steps; k++) {
    if (rising) y += (A * 2 * f * dt) / duty;
    else y -= (A * 2 * f * dt) / (1 - duty);
    if (y >= A) { y = A; rising = false; } else if (y <= -A) { y = -A; rising = true; }
  }
  return y + D;
}

/** The engine's sawtooth: offset + amplitude·frac(f·t + phase/360). */
function engineSawtooth(p: Record<string, unknown>, t: number): number {
  const cycles = (p.frequency as number) * t + (p.phase as number) / 360;
  return (p.offset as number) + (p.amplitude as number) * (cycles - Math.floor(cycles));
}

function triangle(duty: string, phase = '0.0'): string {
  let text = fixtureText('buck_simple.ipes');
  text = edit(text, 'parameter[] 404.0 1.0 35000.0 0.0 0.0 0.4 0.0 1.0 ', `parameter[] 403.0 0.5 1000.0 0.5 ${phase} ${duty} 0.0 1.0 `);
  text = edit(text, 'typQuelle 404\n', 'typQuelle 403\n');
  text = edit(text, 'amplitudeAC 1.0\n', 'amplitudeAC 0.5\n');
  text = edit(text, 'frequenz 35000.0\n', 'frequenz 1000.0\n');
  text = edit(text, 'anteilDC 0.0\n', 'anteilDC 0.5\n');
  text = edit(text, 'tastverhaeltnis 0.4\n', `tastverhaeltnis ${duty}\n`);
  return edit(text, 'phase 0.0\n', `phase ${phase}\n`);
}

describe('ipes reader: triangles with duty 1 or 0 are sawtooth ramps', () => {
  for (const duty of ['1.0', '0.0']) {
    it(`duty ${duty}: maps to a sawtooth that follows GeckoCIRCUITS' ramp and writes back as the same triangle`, () => {
      const { netlist } = readIpes(textBytes(triangle(duty)));
      const p = block(netlist, 'SIGNAL.1').params!;
      expect(p).to.deep.equal(duty === '1.0'
        ? { waveform: 'sawtooth', amplitude: 1, frequency: 1000, offset: 0, phase: 180 }
        : { waveform: 'sawtooth', amplitude: -1, frequency: 1000, offset: 1, phase: 0 });
      // dt = 1 µs: 1000 steps per period, ramp steps of 1e-3; compare away from the jumps.
      for (const steps of [100, 300, 499, 501, 700]) {
        expect(engineSawtooth(p, steps * 1e-6)).to.be.closeTo(geckoTriangle(0.5, 0.5, 1000, Number(duty), 1e-6, steps), 3e-3);
      }
      const again = readIpes(textBytes(writeIpesText(netlist))).netlist;
      expect(block(again, 'SIGNAL.1').params).to.deep.equal(p);
    });
  }

  it('refuses a sawtooth triangle with a phase, and other asymmetric triangles', () => {
    expect(netlistError(() => readIpes(textBytes(triangle('1.0', '1.5707963267948966')))).details[0].message).to.match(/duty 1, phase 90(\.0+\d*)?°/);
    expect(netlistError(() => readIpes(textBytes(triangle('0.3')))).details[0].message).to.match(/asymmetric triangle \(duty 0\.3;/);
  });
});
