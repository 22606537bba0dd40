// `pesim script` as a user runs it (the built command in a child process): script files, errors
// with positions and exit status, --max-steps, --circuit, the scripting guide's examples and an .ipes file
// with an embedded GeckoSCRIPT sweep (both checked against the Node API), Ctrl-C in a loop and
// during a simulation, and the interactive prompt fed through standard input.
import { expect } from 'chai';
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { simulate } from '../../../src/engine/index.js';
import { readCircuitFile } from '../../../src/formats/read.js';

const bin = fileURLToPath(new URL('../../../bin/pesim.js', import.meta.url));
const scriptingDoc = fileURLToPath(new URL('../../../docs/scripting.md', import.meta.url));
const buckIpes = fileURLToPath(new URL('../../fixtures/gecko/buck_simple.ipes', import.meta.url));
const sweepIpes = fileURLToPath(new URL('../../fixtures/script/buck-sweep.ipes', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'pesim-script-cli-'));
const pesim = (args: string[], input?: string) => spawnSync(process.execPath, [bin, 'script', ...args], { encoding: 'utf8', input, timeout: 120000 });

function scriptFile(name: string, text: string): string {
  return scriptFileIn(dir, name, text);
}

function scriptFileIn(folder: string, name: string, text: string): string {
  const path = join(folder, name);
  writeFileSync(path, text);
  return path;
}

/** The ```java blocks of the scripting guide (docs/scripting.md). */
function readmeExamples(): string[] {
  const text = readFileSync(scriptingDoc, 'utf8');
  return [...text.matchAll(/```java\n([\s\S]*?)```/g)].map((m) => m[1]);
}

async function buckWith(parameters: Record<string, number>) {
  const read = await readCircuitFile(readFileSync(buckIpes), buckIpes);
  return simulate(read.netlist, { parameters });
}

interface Finished {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Spawns the command, waits until stdout contains `ready`, sends SIGINT and waits for the end. */
function interruptWhen(args: string[], ready: string, delayMs = 0): Promise<Finished> {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [bin, 'script', ...args]);
  let stdout = '';
  let stderr = '';
  let sent = false;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no exit within 60 s; stdout: ${stdout} stderr: ${stderr}`));
    }, 60000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (!sent && stdout.includes(ready)) {
        sent = true;
        setTimeout(() => child.kill('SIGINT'), delayMs);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

describe('pesim script', function () {
  this.timeout(180000);

  it('runs a script file and prints its output', () => {
    const r = pesim([scriptFile('hello.pss', 'int n = 7;\nprint("n/2 = " + n / 2 + ", dt = " + 1e-5);\n')]);
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.equal('n/2 = 3, dt = 1.0E-5\n');
  });

  it('reports an error with file:line:column, the line and a caret, and exits with 1', () => {
    const file = scriptFile('bad.pss', 'double x = 1;\nx = x + foo(2);\n');
    const r = pesim([file]);
    expect(r.status).to.equal(1);
    expect(r.stderr).to.equal(`${file}:2:9: unknown function 'foo'\n    x = x + foo(2);\n            ^\n`);
  });

  it('stops after --max-steps statements', () => {
    const r = pesim(['--max-steps', '100', scriptFile('loop.pss', 'int i = 0;\nwhile (true) i++;\n')]);
    expect(r.status).to.equal(1);
    expect(r.stderr).to.contain('the script exceeded the limit of 100 statements (--max-steps)');
    expect(pesim(['--max-steps', 'many', 'x.pss']).stderr).to.contain('--max-steps expects a positive whole number');
  });

  it('runs the scripting guide\'s examples against a circuit given by --circuit, with the Node API values', async () => {
    const [first, second] = readmeExamples();
    const r1 = pesim([scriptFile('example1.pss', first), '--circuit', buckIpes]);
    expect(r1.status, r1.stderr).to.equal(0);
    const lines1 = r1.stdout.trim().split('\n');
    expect(lines1).to.have.length(3);
    for (const [k, duty] of [0.2, 0.4, 0.6].entries()) {
      const result = await buckWith({ 'SIGNAL.1.duty': duty });
      expect(lines1[k]).to.equal(`duty ${duty}: u2 = ${result.measurements['SCOPE.1.ch3_avg']} V`);
    }
    const r2 = pesim([scriptFile('example2.pss', second), '--circuit', buckIpes]);
    expect(r2.status, r2.stderr).to.equal(0);
    const lines2 = r2.stdout.trim().split('\n');
    expect(lines2).to.have.length(3);
    for (const [k, load] of [5, 10, 20].entries()) {
      const u2 = (await buckWith({ 'R.1.R': load })).signals['SCOPE.1.ch3'];
      expect(lines2[k]).to.match(new RegExp(`^R = ${load}\\.0 Ohm: u2\\(end\\) = ${u2[u2.length - 1]} V, ripple \\d\\.\\d+(E-\\d+)?$`));
    }
  });

  it('runs the scripting guide\'s file example: the table is written beside the script', async () => {
    const third = readmeExamples()[2];
    const folder = mkdtempSync(join(dir, 'files-'));
    const r = pesim([scriptFileIn(folder, 'table.pss', third), '--circuit', buckIpes]);
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.equal('written: sweep.csv\n');
    const rows = readFileSync(join(folder, 'sweep.csv'), 'utf8').trim().split('\n');
    expect(rows[0]).to.equal('R,u2');
    expect(rows.slice(1).map((row) => row.split(',')[0])).to.deep.equal(['5.0', '10.0', '20.0']);
    const u2 = (await buckWith({ 'R.1.R': 10 })).signals['SCOPE.1.ch3'];
    expect(Number(rows[2].split(',')[1])).to.be.closeTo(u2[u2.length - 1], 5e-5);
  });

  it('runs the scripting guide\'s step-wise example: the load step acts from the next step on', async () => {
    const fourth = readmeExamples()[3];
    const r = pesim([scriptFile('stepwise.pss', fourth), '--circuit', buckIpes]);
    expect(r.status, r.stderr).to.equal(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).to.have.length(2);
    const [, t1, u1] = /^t = (\S+) s: u2 = (\S+) V$/.exec(lines[0])!;
    const [, t2, u2, mean] = /^t = (\S+) s: u2 = (\S+) V, mean of the last 0\.2 ms (\S+) V$/.exec(lines[1])!;
    // up to the load step the run is the plain run at 10 Ohm, sample for sample; getSimulationTime()
    // is GeckoCIRCUITS' time of the next step, so the last sample is the one before it
    const plain = await buckWith({ 'R.1.R': 10 });
    const at = (t: string): number => plain.time.findIndex((x) => x === Number(t));
    expect(at(t1)).to.be.above(0);
    expect(Number(u1)).to.equal(plain.signals['SCOPE.1.ch3'][at(t1) - 1]);
    expect(Number(u2)).to.not.equal(plain.signals['SCOPE.1.ch3'][at(t2) - 1]);
    expect(Number(mean)).to.be.within(10, 24);
  });

  it('refuses a file outside the script\'s folder, and writes into --output-dir', () => {
    const folder = mkdtempSync(join(dir, 'confined-'));
    const script = scriptFileIn(folder, 'escape.pss', 'PrintWriter w = new PrintWriter("../escaped.txt");\nw.println(1);\nw.close();\n');
    const r = pesim([script]);
    expect(r.status).to.equal(1);
    expect(r.stderr).to.contain(`${script}:1:17: SecurityException: ../escaped.txt is outside the folder scripts may write to`);
    expect(existsSync(join(dir, 'escaped.txt'))).to.equal(false);
    const results = mkdtempSync(join(dir, 'results-'));
    const ok = pesim([scriptFileIn(folder, 'inside.pss', 'PrintWriter w = new PrintWriter("r.txt");\nw.print("ok");\nw.close();\n'), '--output-dir', results]);
    expect(ok.status, ok.stderr).to.equal(0);
    expect(readFileSync(join(results, 'r.txt'), 'utf8')).to.equal('ok');
    expect(existsSync(join(folder, 'r.txt'))).to.equal(false);
  });

  it('runs the GeckoSCRIPT embedded in an .ipes file against its circuit', async () => {
    const r = pesim([sweepIpes]);
    expect(r.status, r.stderr).to.equal(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).to.have.length(7);
    expect(lines[6]).to.equal('runs: 6');
    let k = 0;
    for (const load of [10, 5]) {
      for (const duty of [0.2, 0.4, 0.6]) {
        const result = await buckWith({ 'R.1.R': load, 'SIGNAL.1.duty': duty });
        const u2 = result.signals['SCOPE.1.ch3'];
        const match = /^R = (\S+) d = (\S+): u2 = (\S+) V, avg (\S+)$/.exec(lines[k++]);
        expect(match, lines[k - 1]).to.not.equal(null);
        expect([Number(match![1]), Number(match![2]), Number(match![3])]).to.deep.equal([load, duty, u2[u2.length - 1]]);
        // GeckoCIRCUITS' average: each sample in [t1, t2) held until the next, over t2 − t1.
        let held = 0;
        for (let i = 0; i + 1 < u2.length; i++) {
          if (result.time[i] >= 0.5e-3 && result.time[i] < 1e-3) held += u2[i] * (result.time[i + 1] - result.time[i]);
        }
        const mean = held / 0.5e-3;
        expect(Number(match![4])).to.be.closeTo(mean, 1e-9 * mean);
      }
    }
  });

  it('stops a runaway loop on Ctrl-C with status 130 and a message', async () => {
    const file = scriptFile('runaway.pss', 'print("started");\ndouble x = 0;\nwhile (true) { x = x + 1; }\n');
    const r = await interruptWhen([file], 'started');
    expect(r.status).to.equal(130);
    expect(r.stderr).to.contain('stopping the script');
    expect(r.stderr).to.match(new RegExp(`${file.replace(/[.\\/]/g, '\\$&')}:3:\\d+: interrupted by Ctrl-C`));
  });

  it('stops a running simulation on Ctrl-C', async () => {
    const file = scriptFile('long-run.pss', `loadCircuit("${buckIpes}");\nset_Tend(60);\nprint("running");\nrunSimulation();\nprint("finished");\n`);
    const r = await interruptWhen([file], 'running', 500);
    expect(r.status).to.equal(130);
    expect(r.stdout).to.not.contain('finished');
    expect(r.stderr).to.contain(`${file}:4:1: interrupted by Ctrl-C`);
  });

  it('reads statements from standard input without a file, over several lines', () => {
    const r = pesim([], 'int total = 0;\nfor (int i = 1; i <= 4; i++) {\n  total += i;\n}\nprint(total);\nprint(undefinedName);\nprint(total * 2);\ntotal / 3.0\n');
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.equal('10\n20\n3.3333333333333335\n');
    expect(r.stderr).to.contain("<prompt>:6:7: unknown name 'undefinedName'");
  });

  it('loads --circuit before the prompt', () => {
    const r = pesim(['--circuit', buckIpes], 'print(getParameter("R.1", "R"));\n');
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.equal('10.0\n');
  });
});
