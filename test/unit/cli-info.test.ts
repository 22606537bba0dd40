// `pesim info FILE` as a user runs it (the built command line, dist/): components with parameters
// and GeckoCIRCUITS short names, global parameters, scopes with channels and measurement names.
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rcStep } from '../fixtures/circuits.js';

const bin = fileURLToPath(new URL('../../bin/pesim.js', import.meta.url));
const gecko = (name: string) => fileURLToPath(new URL(`../fixtures/gecko/${name}`, import.meta.url));
const pesim = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 60_000 });

interface Info {
  format: string;
  components: Array<{ name: string; type: string; kind: string; parameters: Array<{ name: string; value: unknown; geckoName?: string; geckoValue?: number }> }>;
  globalParameters: Record<string, number>;
  scopes: Array<{ name: string; channels: Array<{ key: string; index: number; label: string; measurements: string[] }> }>;
}

describe('pesim info', () => {
  it('lists the components of a GeckoCIRCUITS buck with values and short names, as JSON', () => {
    const r = pesim('info', gecko('buck_simple.ipes'), '--json');
    expect(r.status, r.stderr).to.equal(0);
    const info = JSON.parse(r.stdout) as Info;
    expect(info.format).to.equal('ipes');
    const source = info.components.find((c) => c.name === 'U.1');
    expect(source?.parameters).to.deep.include({ name: 'value', value: 48, geckoName: 'uDC' });
    const sw = info.components.find((c) => c.name === 'S.1');
    expect(sw?.parameters.map((p) => p.geckoName)).to.deep.equal(['rON', 'rOFF']);
    const signal = info.components.find((c) => c.name === 'SIGNAL.1');
    expect(signal?.kind).to.equal('control');
    expect(signal?.parameters).to.deep.include({ name: 'duty', value: 0.4, geckoName: 'd' });
  });

  it('lists scopes with channel keys, labels and the measurement names of the specification', () => {
    const r = pesim('info', gecko('buck_simple.ipes'), '--json');
    const info = JSON.parse(r.stdout) as Info;
    expect(info.scopes.map((s) => s.name)).to.deep.equal(['SCOPE.1']);
    const channels = info.scopes[0].channels;
    expect(channels.map((c) => c.label)).to.deep.equal(['u1', 'uS', 'u2', 'iL', 'iC', 'gate']);
    expect(channels[2]).to.deep.equal({
      key: 'SCOPE.1.ch3', index: 3, label: 'u2', measurements: ['SCOPE.1.ch3_avg', 'SCOPE.1.ch3_rms', 'SCOPE.1.ch3_min', 'SCOPE.1.ch3_max'],
    });
    expect(info.components.some((c) => c.type === 'SCOPE')).to.equal(false);
  });

  it('shows the GeckoCIRCUITS value where the reader converts it (a source phase)', () => {
    const r = pesim('info', gecko('singlePhase_PWM_converter.ipes'), '--json');
    expect(r.status, r.stderr).to.equal(0);
    const info = JSON.parse(r.stdout) as Info;
    const converted = info.components.flatMap((c) => c.parameters).filter((p) => p.geckoValue !== undefined);
    expect(converted.length).to.be.greaterThan(0);
    for (const p of converted) expect(p.geckoName).to.equal('phase');
  });

  it('prints the names as text: components, global parameters, channels', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pesim-info-')), 'rc.json');
    writeFileSync(file, JSON.stringify({ ...rcStep('trapezoidal', 1e-5), parameters: { Rload: 500 } }));
    const r = pesim('info', file);
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.match(/^\s+R\.1\s+R\s+R=/m);
    expect(r.stdout).to.contain('$Rload = 500');
    expect(r.stdout).to.match(/SCOPE\.1\.ch1\s.*SCOPE\.1\.ch1_avg/);
    const geckoText = pesim('info', gecko('buck_simple.ipes'));
    expect(geckoText.stdout).to.contain('value=48 [uDC]');
  });

  it('lists a SPICE deck\'s probes as channels with their labels', () => {
    const r = pesim('info', fileURLToPath(new URL('../../bench/peers/rc.cir', import.meta.url)), '--json');
    expect(r.status, r.stderr).to.equal(0);
    const info = JSON.parse(r.stdout) as Info;
    expect(info.format).to.equal('spice');
    const channels = info.scopes.flatMap((s) => s.channels);
    expect(channels.map((c) => c.label)).to.deep.equal(['V(in)', 'V(out)', 'I(V1)']);
    expect(channels[1].measurements[0]).to.equal(`${channels[1].key}_avg`);
    expect(info.components.find((c) => c.name === 'R1')?.parameters.every((p) => p.geckoName === undefined)).to.equal(true);
  });

  it('names a missing file and exits non-zero', () => {
    const r = pesim('info', '/nonexistent/buck.ipes');
    expect(r.status).to.not.equal(0);
    expect(r.stderr).to.contain('/nonexistent/buck.ipes');
  });
});
