// The retry back-off: exact doubling without jitter, BullMQ's rule with it (a uniform draw from
// the upper `jitter` fraction of each doubled wait).
import { expect } from 'chai';
import { retryDelayMs } from '../../../src/jobs/backoff.js';

describe('retry back-off', () => {
  it('doubles the wait after each failed attempt without jitter', () => {
    const policy = { delayMs: 5000, jitter: 0 };
    expect([1, 2, 3, 4].map((attempt) => retryDelayMs(policy, attempt))).to.deep.equal([5000, 10_000, 20_000, 40_000]);
  });

  it('draws each wait from [(1 − jitter) · d, d) with jitter', () => {
    const policy = { delayMs: 1000, jitter: 0.5 };
    expect(retryDelayMs(policy, 3, () => 0)).to.equal(2000);
    expect(retryDelayMs(policy, 3, () => 0.5)).to.equal(3000);
    expect(retryDelayMs(policy, 3, () => 0.999_999)).to.equal(3999);
    for (let i = 0; i < 200; i++) {
      const wait = retryDelayMs(policy, 2);
      expect(wait).to.be.at.least(1000).and.below(2000);
    }
  });

  it('keeps a jitter outside 0…1 within it', () => {
    expect(retryDelayMs({ delayMs: 100, jitter: -1 }, 1)).to.equal(100);
    expect(retryDelayMs({ delayMs: 100, jitter: 3 }, 1, () => 0.25)).to.equal(25);
  });
});
