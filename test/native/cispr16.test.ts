// The CISPR16 test receiver block through the addon: a rectangle of known amplitude and frequency
// (duty 0.5, M = 64 samples per period) reads its Fourier levels, harmonic k (odd) of amplitude
// (2A/M)/sin(kπ/M) (→ 2A/(kπ) for large M) as an RMS value in dBµV, with nothing at the missing even
// harmonic; the spectrum arrives as `receivers`, the maxima and limit margins as measurements under
// their user-facing names; a record too short for the 200 Hz bandwidth below 150 kHz is flagged;
// bad parameters fail before the run naming the block and the parameter; a cancel during the
// analysis after the last step stops the run.
import { expect } from 'chai';
import { CancelledError, CircuitError, RunController, measurement, namedMeasurements, simulate, simulateSync } from '../../src/index.js';
import type { Netlist, ParamValue } from '../../src/formats/netlist.js';

// N = 32768 analysed samples at dt = 1/(32768 · 500 Hz): 500 Hz bins; the 256 kHz rectangle has
// M = 64 samples per period and its harmonics lie on bins 512, 1024, 1536.
const DT = 1 / (32768 * 500);
const AMPLITUDE = 1;
const FREQUENCY = 256e3;
const M = 64;

function receiver(params: Record<string, ParamValue>): Netlist {
  return {
    settings: { tEnd: 2 * 32768 * DT, dt: DT },
    elements: [{ name: 'R.1', type: 'R', nodes: ['a', '0'], params: { R: 1 } }, { name: 'V.1', type: 'V', nodes: ['a', '0'], params: { waveform: 'dc', value: 1 } }],
    blocks: [
      { name: 'SIGNAL.1', type: 'SIGNAL', outputs: ['x'], params: { waveform: 'rectangle', amplitude: AMPLITUDE, frequency: FREQUENCY, duty: 0.5 } },
      { name: 'CISPR16.1', type: 'CISPR16', inputs: ['x'], params },
    ],
  };
}

const dbMicroVolt = (rms: number): number => 20 * Math.log10(rms / 1e-6);

describe('CISPR16 test receiver block (engine)', () => {
  it('reads the Fourier levels of a rectangle at its harmonics', () => {
    const result = simulateSync(receiver({ minFrequency: FREQUENCY, maxFrequency: 3 * FREQUENCY, interval: FREQUENCY, average: 1 }));
    expect(result.receivers).to.have.length(1);
    const [spectrum] = result.receivers!;
    expect(spectrum.block).to.equal('CISPR16.1');
    expect(spectrum.resolution).to.be.closeTo(500, 1e-9);
    expect(Array.from(spectrum.frequency)).to.deep.equal([FREQUENCY, 2 * FREQUENCY, 3 * FREQUENCY]);
    const harmonic = (k: number): number => dbMicroVolt((2 * AMPLITUDE) / M / Math.sin((k * Math.PI) / M) / Math.SQRT2);
    const fundamental = harmonic(1);  // 113.07 dBµV (2A/π: 113.06)
    const third = harmonic(3);  // 103.56 dBµV (2A/(3π): 103.52)
    expect(spectrum.peak[0]).to.be.closeTo(fundamental, 0.1);
    expect(spectrum.average[0]).to.be.closeTo(fundamental, 0.1);
    expect(spectrum.peak[2]).to.be.closeTo(third, 0.1);
    expect(spectrum.peak[1]).to.be.below(third - 40);
    // The quasi-peak detector reads a steady sine low by up to 2 dB, never high (cispr16_test.cpp).
    expect(spectrum.quasiPeak[0]).to.be.within(fundamental - 2, fundamental + 0.1);
    expect(measurement(result, 'CISPR16.1.peak_max')).to.equal(spectrum.peak[0]);
    expect(measurement(result, 'CISPR16.1.qp_max')).to.equal(spectrum.quasiPeak[0]);
    const named = namedMeasurements(result.measurements);
    expect(named['CISPR16.1.qp_max_frequency']).to.equal(FREQUENCY);
    expect(named['CISPR16.1.avg_max']).to.equal(spectrum.average[0]);
    // Class A limits: 79 dBµV below 500 kHz, 73 dBµV above; the fundamental is the closest.
    expect(named['CISPR16.1.qp_margin_class_a']).to.be.closeTo(79 - spectrum.quasiPeak[0], 1e-9);
    expect(result.warnings.filter((w) => w.startsWith('CISPR16.1'))).to.deep.equal([]);
  });

  it('flags a record too short to resolve the 200 Hz bandwidth below 150 kHz', () => {
    // 500 Hz bins cannot hold a 200 Hz filter: the band A levels are then meaningless.
    const result = simulateSync(receiver({ minFrequency: FREQUENCY / 2, maxFrequency: FREQUENCY / 2, quasiPeak: 0 }));
    expect(result.warnings.join('\n')).to.include('CISPR16.1: the analysed record resolves frequencies every 500 Hz, coarser than the 200 Hz receiver bandwidth');
  });

  it('leaves the detectors that are off as NaN and without measurements', () => {
    const result = simulateSync(receiver({ minFrequency: FREQUENCY, maxFrequency: FREQUENCY, quasiPeak: 0, peak: 0, average: 1 }));
    const [spectrum] = result.receivers!;
    expect(Number.isNaN(spectrum.peak[0]) && Number.isNaN(spectrum.quasiPeak[0])).to.equal(true);
    expect(Object.keys(namedMeasurements(result.measurements)).filter((k) => k.startsWith('CISPR16.1'))).to.deep.equal([
      'CISPR16.1.avg_max', 'CISPR16.1.avg_max_frequency',
    ]);
  });

  it('stops at a cancel during the analysis after the last step', async () => {
    // 2^19 steps of 0.1 µs, N = 2^18 analysed samples and 417 frequencies up to 3.9 MHz: seconds of
    // analysis after the steps, far longer than the wait for the last step below.
    const netlist = receiver({ minFrequency: 150e3, maxFrequency: 3.9e6, interval: 9e3 });
    netlist.settings = { tEnd: 2 ** 19 * 1e-7, dt: 1e-7 };
    const controller = new RunController();
    const run = simulate(netlist, { controller });
    const started = Date.now();
    while (!(controller.progress().step === 2 ** 19 && controller.progress().phase === 'main')) {
      if (Date.now() - started > 30_000) throw new Error('the run did not reach its last step');
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    controller.cancel();
    const error = await run.then(() => undefined, (e: unknown) => e);
    expect(error).to.be.instanceOf(CancelledError);
    expect(controller.progress().phase).to.equal('main');  // 'done' only once the analysis is complete
  });

  it('refuses bad parameters before the run, naming the block and the parameter', () => {
    const fails = (params: Record<string, ParamValue>, text: string): void => {
      let error: unknown;
      try {
        simulateSync(receiver(params));
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(CircuitError);
      expect((error as CircuitError).code).to.equal('PARAMETER_OUT_OF_RANGE');
      expect((error as Error).message).to.include('CISPR16.1').and.include(text);
    };
    fails({ interval: -1 }, "parameter 'interval' must be greater than 0");
    fails({ minFrequency: 2e6, maxFrequency: 1e6 }, "parameter 'maxFrequency' must be at least minFrequency");
    fails({ blackman: 0.5 }, "parameter 'blackman' must be 0 or 1");
  });
});
