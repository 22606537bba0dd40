// The `pesim` command as a user runs it: help, run with --json and overrides, errors, serve.
import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readResult } from '../../src/jobs/cache/formats/index.js';
import { rcStep } from '../fixtures/circuits.js';

const bin = fileURLToPath(new URL('../../bin/pesim.js', import.meta.url));
const buckIpes = fileURLToPath(new URL('../fixtures/gecko/buck_simple.ipes', import.meta.url));
const rcDeck = fileURLToPath(new URL('../../bench/peers/rc.cir', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'pesim-cli-'));
const pesim = (...args: string[]) => spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });

describe('pesim command', () => {
  const rcFile = join(dir, 'rc.json');
  before(() => writeFileSync(rcFile, JSON.stringify(rcStep('trapezoidal', 1e-5, 5e-3))));

  it('lists its subcommands', () => {
    const r = pesim('--help');
    expect(r.status).to.equal(0);
    for (const command of ['serve', 'run', 'validate']) expect(r.stdout).to.contain(command);
  });

  it('runs a JSON netlist and prints the documented JSON with overrides applied', () => {
    const r = pesim('run', rcFile, '--json', '--param', 'R.1.R=500', '--from', '0.004');
    expect(r.status, r.stderr).to.equal(0);
    const out = JSON.parse(r.stdout) as { signals: string[]; measurements: Record<string, number>; stats: { steps: number } };
    expect(out.signals).to.deep.equal(['SCOPE.1.ch1']);
    expect(out.stats.steps).to.equal(500);
    // tau = 0.5 ms with R = 500 Ω: at 4 ms the capacitor is at 1 − e^−8.
    expect(out.measurements['SCOPE.1.ch1_min']).to.be.closeTo(1 - Math.exp(-8), 1e-4);
  });

  it('writes the signals as CSV', () => {
    const csv = join(dir, 'out.csv');
    const r = pesim('run', rcFile, '--out', csv);
    expect(r.status, r.stderr).to.equal(0);
    const lines = readFileSync(csv, 'utf8').trim().split('\n');
    expect(lines[0]).to.equal('time,SCOPE.1.ch1');
    expect(lines).to.have.length(502); // header + t = 0 … 5 ms
    expect(Number(lines[501].split(',')[1])).to.be.closeTo(1 - Math.exp(-5), 1e-3);
  });

  it('reports a bad override and a broken file on stderr with a non-zero exit code', () => {
    const bad = pesim('run', rcFile, '--param', 'R.9.R=1');
    expect(bad.status).to.equal(1);
    expect(bad.stderr).to.contain('R.9.R');
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"settings": {"tEnd": 1,\n "dt": }');
    const r = pesim('run', broken);
    expect(r.status).to.equal(1);
    expect(r.stderr).to.match(/line 2/);
  });

  it('validates a circuit and names the element at fault', () => {
    const circuit = rcStep('backward-euler', 1e-5);
    circuit.elements.push({ name: 'V.9', type: 'V', nodes: ['in', '0'], params: { waveform: 'dc', value: 3 } });
    const file = join(dir, 'loop.json');
    writeFileSync(file, JSON.stringify(circuit));
    const r = pesim('validate', file);
    expect(r.status).to.equal(1);
    expect(r.stderr).to.contain('V.9');
    expect(pesim('validate', rcFile).status).to.equal(0);
  });

  it('runs a GeckoCIRCUITS file: scope channels as signal names, measurements over the last 20 %', () => {
    const r = pesim('run', buckIpes, '--json');
    expect(r.status, r.stderr).to.equal(0);
    const out = JSON.parse(r.stdout) as { signals: string[]; measurements: Record<string, number>; stats: { steps: number; wallMs: number } };
    expect(Object.keys(out)).to.deep.equal(['signals', 'labels', 'measurements', 'stats']);
    expect(out.signals).to.deep.equal(['SCOPE.1.ch1', 'SCOPE.1.ch2', 'SCOPE.1.ch3', 'SCOPE.1.ch4', 'SCOPE.1.ch5', 'SCOPE.1.ch6']);
    expect((out as unknown as { labels: Record<string, string> }).labels).to.deep.equal({
      'SCOPE.1.ch1': 'u1', 'SCOPE.1.ch2': 'uS', 'SCOPE.1.ch3': 'u2', 'SCOPE.1.ch4': 'iL', 'SCOPE.1.ch5': 'iC', 'SCOPE.1.ch6': 'gate',
    });
    expect(Object.keys(out.measurements)).to.include.members(['SCOPE.1.ch3_avg', 'SCOPE.1.ch3_rms', 'SCOPE.1.ch3_min', 'SCOPE.1.ch3_max']);
    // u2 of the 48 V buck at duty 0.4: D·Vin − (1 − D)·vf = 18.84 V.
    expect(out.measurements['SCOPE.1.ch3_avg']).to.be.closeTo(18.84, 0.4);
    expect(out.stats.steps).to.equal(999);  // GeckoCIRCUITS' steps after t = 0: the last at 0.999 ms
    expect(out.stats.wallMs).to.be.a('number');
  });

  it('prints measurements as text under the specification\'s names (SCOPE.1.ch3_avg) with their channel labels', () => {
    const r = pesim('run', buckIpes);
    expect(r.status, r.stderr).to.equal(0);
    const avg = /^SCOPE\.1\.ch3_avg\s+(\S+)\s+u2$/m.exec(r.stdout);
    expect(r.stdout).to.match(/^SCOPE\.1\.ch4_rms\s+\S+\s+iL$/m);
    expect(avg, r.stdout).to.not.equal(null);
    expect(Number(avg![1])).to.be.closeTo(18.84, 0.4);
    expect(r.stdout).to.not.match(/ch\d\.(avg|rms|min|max)/);
  });

  it('runs a SPICE deck with V(node) and I(element) names, --tend, --dt and a window', () => {
    const r = pesim('run', rcDeck, '--json', '--tend', '2e-3', '--dt', '1e-5', '--from', '0', '--to', '1e-3');
    expect(r.status, r.stderr).to.equal(0);
    const out = JSON.parse(r.stdout) as { signals: string[]; measurements: Record<string, number>; stats: { steps: number } };
    expect(out.signals).to.deep.equal(['V(in)', 'V(out)', 'I(V1)']);
    expect(out.stats.steps).to.equal(200);
    expect(out.measurements['V(out)_max']).to.be.closeTo(1 - Math.exp(-1), 0.01);
    expect(out.measurements['I(V1)_min']).to.be.closeTo(-1e-3, 2e-5);
  });

  it('writes the signals as Parquet under their user-facing names', async () => {
    const file = join(dir, 'rc.parquet');
    const r = pesim('run', rcDeck, '--out', file);
    expect(r.status, r.stderr).to.equal(0);
    const stored = await readResult(file, 'parquet');
    expect(Object.keys(stored.signals)).to.deep.equal(['V(in)', 'V(out)', 'I(V1)']);
    expect(stored.time).to.have.length(5001);
    expect(stored.signals['V(out)'][5000]).to.be.closeTo(1 - Math.exp(-5), 1e-3);
  });

  it('refuses an unknown output extension before simulating, and unreadable files', () => {
    const r = pesim('run', rcDeck, '--out', join(dir, 'out.xlsx'));
    expect(r.status).to.equal(1);
    expect(r.stderr).to.match(/--out: cannot write .*out\.xlsx: expected a file name ending in \.csv or \.parquet/);
    const junk = join(dir, 'junk.ipes');
    writeFileSync(junk, Buffer.from([0x1f, 0x8b, 8, 0, 1, 2, 3]));
    const bad = pesim('run', junk);
    expect(bad.status).to.equal(1);
    expect(bad.stderr).to.match(/junk\.ipes starts like a gzip stream but cannot be decompressed/);
    expect(bad.stdout).to.equal('');
  });

  it('validates GeckoCIRCUITS files and SPICE decks', () => {
    const ipes = pesim('validate', buckIpes);
    expect(ipes.status, ipes.stderr).to.equal(0);
    expect(ipes.stdout).to.match(/valid ipes circuit, 6 elements, 8 control blocks/);
    const deck = pesim('validate', rcDeck);
    expect(deck.status, deck.stderr).to.equal(0);
    expect(deck.stdout).to.match(/valid spice circuit, 3 elements/);
  });

  it('serve and jobq set the V8 budget before starting: a bad PESIM_V8_INTERRUPT_BUDGET stops them with the reason', () => {
    for (const command of ['serve', 'jobq']) {
      const r = spawnSync(process.execPath, [bin, command, '--port', '0', '--host', '127.0.0.1'], {
        encoding: 'utf8',
        env: { ...process.env, PESIM_V8_INTERRUPT_BUDGET: 'fast', PESIM_DATA_DIR: join(dir, `v8-${command}`) },
        timeout: 30_000,
      });
      expect(r.status, `${command}: ${r.stdout}`).to.not.equal(0);
      expect(r.stderr).to.contain('PESIM_V8_INTERRUPT_BUDGET must be a non-negative integer');
    }
  });

  it('serve and jobq stop in order on a SIGTERM sent the moment they say they are ready (status 0, their stop line)', async () => {
    for (const command of ['serve', 'jobq']) {
      const child = spawn(process.execPath, [bin, command, '--port', '0', '--host', '127.0.0.1'], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, PESIM_DATA_DIR: join(dir, `signal-${command}`), SIM_RMI_PORT: '0' },
      });
      let out = '';
      const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
      child.stdout.on('data', (chunk: Buffer) => {
        const before = out;
        out += chunk.toString();
        if (!/http:\/\//.test(before) && /http:\/\//.test(out)) child.kill('SIGTERM'); // no wait at all
      });
      child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
      expect(await ended, `${command}: ${out}`).to.deep.equal({ code: 0, signal: null });
      expect(out).to.match(/SIGTERM: stopping/);
    }
  });

  it('worker exits at once with status 130 on a SIGTERM during its start-up (here waiting for an unreachable Redis)', async () => {
    const child = spawn(process.execPath, [bin, 'worker', '--redis', 'redis://127.0.0.1:1/0', '--concurrency', '1'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    const onOutput = (chunk: Buffer): void => {
      out += chunk.toString();
      if (out.includes('Redis unreachable') && !child.killed) child.kill('SIGTERM');
    };
    child.stdout.on('data', onOutput);
    child.stderr.on('data', onOutput);
    expect(await ended, out).to.deep.equal({ code: 130, signal: null });
    expect(out).to.contain('SIGTERM during the start-up, exiting').and.not.to.contain('taking jobs');
  });

  it('serves the health endpoint on the requested loopback port', async () => {
    const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--host', '127.0.0.1', '--rmi-port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          const match = /(http:\/\/\S+)/.exec(chunk.toString());
          if (match) resolve(match[1]);
        });
        child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
      });
      const body = (await (await fetch(url)).json()) as { status: string; engine: { eigen: string } };
      expect(body.status).to.equal('UP');
      expect(body.engine.eigen).to.match(/^3\.4/);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
