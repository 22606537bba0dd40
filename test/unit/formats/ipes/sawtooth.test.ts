// GeckoCIRCUITS triangles of any duty (1 and 0 are sawtooth ramps) → the engine's triangle with that
// duty, checked against GeckoCIRCUITS' stepwise recurrence, and back.
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

/** The engine's triangle (docs/netlist.md): −1 at the period start, +1 at `duty`, back to −1. */
function engineTriangle(p: Record<string, unknown>, t: number): number {
  const cycles = (p.frequency as number) * t + (p.phase as number) / 360;
  const c = cycles - Math.floor(cycles);
  const d = p.duty as number;
  const unit = c < d ? -1 + (2 * c) / d : 1 - (2 * (c - d)) / (1 - d);
  return (p.offset as number) + (p.amplitude as number) * unit;
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

describe('ipes reader: triangles of any duty', () => {
  for (const duty of ['1.0', '0.0', '0.3']) {
    it(`duty ${duty}: maps to the engine triangle that follows GeckoCIRCUITS' ramp and writes back as the same triangle`, () => {
      const { netlist } = readIpes(textBytes(triangle(duty)));
      const p = block(netlist, 'SIGNAL.1').params!;
      expect(p).to.include({ waveform: 'triangle', duty: Number(duty), amplitude: 0.5, offset: 0.5 });
      // dt = 1 µs: 1000 steps per period; compare away from the turning points.
      for (const steps of [100, 280, 499, 501, 700]) {
        expect(engineTriangle(p, steps * 1e-6), `after ${steps} steps`).to.be.closeTo(geckoTriangle(0.5, 0.5, 1000, Number(duty), 1e-6, steps), 3e-3);
      }
      const again = readIpes(textBytes(writeIpesText(netlist))).netlist;
      expect(block(again, 'SIGNAL.1').params).to.deep.equal(p);
    });
  }

  it('refuses a duty outside 0…1', () => {
    expect(netlistError(() => readIpes(textBytes(triangle('1.5')))).details[0].message).to.match(/duty 1\.5/);
  });
});
