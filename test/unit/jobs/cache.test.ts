// The result cache through the scheduler: hit on resubmission with identical results, misses on
// other parameters, TTL expiry, corrupt files treated as misses, and the cache key's inputs.
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheKey, canonicalJson } from '../../../src/jobs/cache/key.js';
import { ManualClock } from '../../../src/jobs/clock.js';
import { buck } from '../../fixtures/circuits.js';
import { task, testRuntime, waitForState, type TestRuntime } from './harness.js';

describe('result cache', function () {
  this.timeout(60_000);
  let runtime: TestRuntime | undefined;
  afterEach(async () => {
    await runtime?.dispose();
    runtime = undefined;
  });

  it('completes a resubmitted task at once from the cache with identical results', async () => {
    runtime = testRuntime();
    const [first] = await runtime.scheduler.submitMany([task(buck({ tEnd: 2e-3 }), 'NORMAL', { 'R.1.R': 4 })]);
    await waitForState(runtime, first.id, ['completed']);
    const [second] = await runtime.scheduler.submitMany([task(buck({ tEnd: 2e-3 }), 'NORMAL', { 'R.1.R': 4 })]);
    expect(second.state).to.equal('completed');
    expect(second.cacheHit).to.equal(true);
    expect(second.runMs).to.equal(runtime.store.tasks.get(first.id)!.runMs);
    const [a, b] = await Promise.all([runtime.scheduler.result(first.id), runtime.scheduler.result(second.id)]);
    expect(b.measurements).to.deep.equal(a.measurements);
    expect(Array.from(b.time)).to.deep.equal(Array.from(a.time));
    const [other] = await runtime.scheduler.submitMany([task(buck({ tEnd: 2e-3 }), 'NORMAL', { 'R.1.R': 5 })]);
    expect(other.cacheHit).to.equal(false);
    const stats = runtime.cache.stats();
    expect(stats.hits).to.equal(1);
    expect(stats.misses).to.equal(2);
    expect(stats.entries).to.equal(1);
    expect(runtime.cache.entry(first.cacheKey!)!.accessCount).to.equal(1);
  });

  it('never caches a cancelled or failed run', async () => {
    runtime = testRuntime();
    const [long] = await runtime.scheduler.submitMany([task(buck({ tEnd: 3 }))]);
    await waitForState(runtime, long.id, ['running']);
    runtime.scheduler.cancel(long.id);
    const bad = buck({ tEnd: 1e-3 });
    bad.elements[1].params = { ron: -1 };
    const [failed] = await runtime.scheduler.submitMany([task(bad)]);
    await waitForState(runtime, failed.id, ['failed']);
    await new Promise((r) => setTimeout(r, 100));
    expect(runtime.cache.stats().entries).to.equal(0);
  });

  it('expires entries after ttl_seconds and sweeps them', async () => {
    const clock = new ManualClock(Date.parse('2026-01-01T00:00:00Z'));
    runtime = testRuntime((s) => (s.cache.ttlSeconds = 60), { clock });
    const [first] = await runtime.scheduler.submitMany([task()]);
    await waitForState(runtime, first.id, ['completed']);
    const entry = runtime.cache.entry(first.cacheKey!)!;
    expect(Date.parse(entry.expiresAt!) - Date.parse(entry.createdAt)).to.equal(60_000);
    clock.advance(59_000);
    expect((await runtime.scheduler.submitMany([task()]))[0].cacheHit).to.equal(true);
    clock.advance(2_000);
    expect(runtime.cache.sweep()).to.equal(1);
    const [late] = await runtime.scheduler.submitMany([task()]);
    expect(late.cacheHit).to.equal(false);
  });

  it('treats a corrupt cache file as a miss, removes it and logs a warning', async () => {
    runtime = testRuntime();
    const [first] = await runtime.scheduler.submitMany([task()]);
    await waitForState(runtime, first.id, ['completed']);
    const entry = runtime.cache.entry(first.cacheKey!)!;
    writeFileSync(join(runtime.dir, 'cache', entry.file), 'not a parquet file');
    const [second] = await runtime.scheduler.submitMany([task()]);
    expect(second.cacheHit).to.equal(false);
    expect(runtime.cache.entry(first.cacheKey!)).to.equal(undefined);
    const warnings = runtime.store.logs.recent(10, 'WARNING').map((l) => l.message);
    expect(warnings.some((m) => m.includes(first.cacheKey!) && m.includes('removed'))).to.equal(true);
    await waitForState(runtime, second.id, ['completed']);
    expect(runtime.cache.entry(first.cacheKey!)).to.not.equal(undefined);
  });

  it('keys on the netlist, the parameters (minus excluded fields), the settings and the engine version', () => {
    const base = { includeFiles: false, includeParameters: true, excludeFields: [] as string[], engineVersion: '1' };
    const spec = { netlist: buck(), parameters: { 'R.1.R': 4, $seed: 1 } };
    const key = cacheKey(spec, base);
    expect(key).to.match(/^[0-9a-f]{64}$/);
    expect(cacheKey({ ...spec, netlist: { ...buck(), name: 'renamed' } }, base)).to.equal(key);
    expect(cacheKey({ ...spec, parameters: { $seed: 1, 'R.1.R': 4 } }, base)).to.equal(key);
    expect(cacheKey({ ...spec, parameters: { 'R.1.R': 5, $seed: 1 } }, base)).to.not.equal(key);
    expect(cacheKey({ ...spec, netlist: buck({ dt: 1e-7 / 2 }) }, base)).to.not.equal(key);
    expect(cacheKey(spec, { ...base, engineVersion: '2' })).to.not.equal(key);
    const excluded = { ...base, excludeFields: ['$seed'] };
    expect(cacheKey({ ...spec, parameters: { 'R.1.R': 4, $seed: 2 } }, excluded)).to.equal(cacheKey(spec, excluded));
    expect(cacheKey({ ...spec, parameters: {} }, { ...base, includeParameters: false })).to.equal(cacheKey(spec, { ...base, includeParameters: false }));
    expect(canonicalJson({ b: 1, a: [2, { d: 1, c: 2 }] })).to.equal('{"a":[2,{"c":2,"d":1}],"b":1}');
    // The key assembled from the netlist's memoised parts is the hash of the whole canonical JSON
    // (the entries written before the memo still match), for a netlist seen once or many times.
    const { layout: _layout, name: _name, ...circuit } = spec.netlist;
    const material = { model: { netlist: { ...circuit, settings: undefined } }, parameters: spec.parameters, settings: spec.netlist.settings, signals: null, engine: '1' };
    const whole = createHash('sha256').update(canonicalJson(material)).digest('hex');
    expect(cacheKey(spec, base)).to.equal(whole);
    expect(cacheKey({ ...spec, signals: ['SCOPE.1.ch1'] }, base)).to.equal(createHash('sha256').update(canonicalJson({ ...material, signals: ['SCOPE.1.ch1'] })).digest('hex'));
  });
});
