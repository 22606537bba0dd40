// The dashboard's pure functions: min/max decimation of waveforms for display (every extreme of
// every pixel column kept, raw samples when few, the visible range cut with a sample beyond either
// side so lines reach the plot's edges) and the sweep form's value lists.
import { expect } from 'chai';
import { decimate, lowerBound } from '../../../web/src/decimate.js';
import { parseValues } from '../../../web/src/sweep-values.js';

describe('dashboard: waveform decimation', () => {
  const n = 1_000_000;
  const time = Float64Array.from({ length: n }, (_, i) => i * 1e-6);
  const sine = Float64Array.from(time, (t) => Math.sin(2 * Math.PI * 50 * t));
  const spikes = new Float64Array(n);
  spikes[123_457] = 7;
  spikes[654_321] = -3;

  it('finds the first sample at or after a time', () => {
    expect(lowerBound(time, 0)).to.equal(0);
    expect(lowerBound(time, 0.5e-6)).to.equal(1);
    expect(lowerBound(time, 2)).to.equal(n);
  });

  it('reduces a million samples to two points per column and keeps every extreme', () => {
    const [t, s, p] = decimate(time, [sine, spikes], 0, time[n - 1], 800);
    expect(t.length).to.equal(1600);
    expect(s.length).to.equal(1600);
    expect(Math.max(...p)).to.equal(7);
    expect(Math.min(...p)).to.equal(-3);
    expect(Math.max(...s)).to.be.closeTo(1, 1e-6);
    expect(Math.min(...s)).to.be.closeTo(-1, 1e-6);
    for (let i = 1; i < t.length; i++) expect(t[i]).to.be.at.least(t[i - 1]);
  });

  it('keeps the raw samples of a short range, from the sample before it to the first at or after its end', () => {
    const [t, s] = decimate(time, [sine], time[10], time[20], 800);
    expect(t[0]).to.equal(time[9]);
    expect(t.at(-1)).to.equal(time[20]);
    expect(t).to.have.length(12);
    expect(decimate(time, [sine], time[10], time[20] + 0.5e-6, 800)[0].at(-1)).to.equal(time[21]);
    expect(s[1]).to.equal(sine[10]);
  });
});

describe('dashboard: sweep values', () => {
  it('reads lists and start:stop:count ranges', () => {
    expect(parseValues('1, 2 ,5', 'v')).to.deep.equal([1, 2, 5]);
    expect(parseValues('2:10:5', 'v')).to.deep.equal([2, 4, 6, 8, 10]);
    expect(parseValues('3:9:1', 'v')).to.deep.equal([3]);
  });

  it('names the field and what was expected for bad input', () => {
    expect(() => parseValues('1, x', 'Values 1')).to.throw(/Values 1: expected numbers/);
    expect(() => parseValues('', 'Values 2')).to.throw(/Values 2/);
    expect(() => parseValues('a:b:3', 'Values 1')).to.throw(/start:stop:count/);
  });
});
