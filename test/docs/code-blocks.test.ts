// The documentation's examples run: every sh/bash/python/js/ts/pss block of README.md and docs/*.md
// that is not marked (test/docs/code-blocks.ts states the markers and substitutions) runs against
// a real `pesim serve` (HTTP and XML-RPC) and, when a block names port 8000, a real `pesim jobq`,
// both started here on free loopback ports with their data in a temporary folder. Blocks and
// services run in a temporary working folder (the services' file root) holding a copy of
// test/fixtures/gecko and links to the repository's `bench` and `docs` folders and to the package
// itself (`import ... from 'pesim'`), with `pesim` on the PATH running the checkout's bin/pesim.js
// (dist/, built by `npm run build:ts`). Each block is bounded to 60 s.
import { expect } from 'chai';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { documentationBlocks, isRunnable, servicesNeeded, substitute, type CodeBlock, type ServicePorts } from './code-blocks.js';
import { freePort } from '../fixtures/free-port.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin', 'pesim.js');
const BLOCK_TIMEOUT_MS = 60_000;
const START_TIMEOUT_MS = 30_000;


/** Starts `pesim ARGS` in `cwd` and resolves once its output matches `ready`. */
async function startService(args: string[], cwd: string, ready: RegExp, env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, [bin, ...args], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`pesim ${args[0]} did not start within ${START_TIMEOUT_MS} ms:\n${output}`)), START_TIMEOUT_MS);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`pesim ${args[0]} exited with ${code}:\n${output}`));
    });
  });
  child.removeAllListeners('exit');
  return child;
}

async function stopService(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

/**
 * The working folder of the blocks and of the services (their file root): a copy of the GeckoCIRCUITS
 * examples (`test/fixtures/gecko`, so that XML-RPC and job-queue paths stay inside the root), links
 * to the repository's `bench` and `docs` folders and to the package, and a `pesim` command.
 */
function workFolder(): { dir: string; path: string } {
  const dir = mkdtempSync(join(tmpdir(), 'pesim-docs-'));
  cpSync(join(root, 'test', 'fixtures', 'gecko'), join(dir, 'test', 'fixtures', 'gecko'), { recursive: true });
  for (const folder of ['bench', 'docs']) symlinkSync(join(root, folder), join(dir, folder));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(root, join(dir, 'node_modules', 'pesim'));
  const binDir = join(dir, '.bin');
  mkdirSync(binDir);
  writeFileSync(join(binDir, 'pesim'), `#!/bin/sh\nexec "${process.execPath}" "${bin}" "$@"\n`);
  chmodSync(join(binDir, 'pesim'), 0o755);
  return { dir, path: `${binDir}:${process.env.PATH ?? ''}` };
}

/** The command that runs a block's code, written to a file in `dir`. */
function command(block: CodeBlock, code: string, dir: string, index: number): string[] {
  const base = join(dir, `block-${index}`);
  switch (block.language) {
    case 'sh':
    case 'bash':
      writeFileSync(`${base}.sh`, code);
      return ['bash', '-e', '-o', 'pipefail', `${base}.sh`];
    case 'python':
      writeFileSync(`${base}.py`, code);
      return ['python3', `${base}.py`];
    case 'js':
      writeFileSync(`${base}.mjs`, code);
      return [process.execPath, `${base}.mjs`];
    case 'ts':
      writeFileSync(`${base}.mts`, code);
      return [process.execPath, '--import', 'tsx', `${base}.mts`];
    default:
      writeFileSync(`${base}.pss`, code);
      return [process.execPath, bin, 'script', `${base}.pss`];
  }
}

const blocks = documentationBlocks(root).filter(isRunnable);
const toRun = blocks.filter((b) => b.notRun === undefined);

describe('documentation examples', function () {
  this.timeout(BLOCK_TIMEOUT_MS + 5_000);
  let serve: ChildProcess | undefined;
  let jobq: ChildProcess | undefined;
  let ports: ServicePorts;
  let work: { dir: string; path: string };

  before(async function () {
    this.timeout(2 * START_TIMEOUT_MS + 5_000);
    if (!existsSync(join(root, 'dist', 'src', 'cli', 'main.js'))) throw new Error('dist/ is not built: run `npm run build:ts`');
    work = workFolder();
    ports = { http: await freePort(), rmi: await freePort() };
    const data = mkdtempSync(join(tmpdir(), 'pesim-docs-data-'));
    if (toRun.some((b) => servicesNeeded(b.code).serve)) {
      serve = await startService(['serve', '--host', '127.0.0.1', '--port', String(ports.http), '--rmi-port', String(ports.rmi), '--data-dir', join(data, 'serve')],
        work.dir, /XML-RPC remote control on/, { SIM_API_AUTH_ENABLED: 'false', SIM_RMI_ROOT: work.dir });
    }
    if (toRun.some((b) => servicesNeeded(b.code).jobq)) {
      ports.jobq = await freePort();
      jobq = await startService(['jobq', '--host', '127.0.0.1', '--port', String(ports.jobq)], work.dir, /job-queue service listening/,
        { PESIM_DATA_DIR: join(data, 'jobq'), JOBQ_MODELS_DIR: work.dir });
    }
  });

  after(async () => {
    await stopService(serve);
    await stopService(jobq);
  });

  it('finds the tour of the README among the blocks it runs', () => {
    const readme = toRun.filter((b) => b.file === 'README.md').map((b) => b.language);
    expect(readme).to.include.members(['sh', 'pss', 'python']);
  });

  it('keeps the README a guide: under 12 kB, the set-up commands first, reference in docs/', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(Buffer.byteLength(readme)).to.be.below(12 * 1024);
    const setup = documentationBlocks(root)[0];
    expect(setup.file).to.equal('README.md');
    expect(setup.code).to.match(/^npm install && npm start\b.*\nnpm test\b/);
  });

  it('every block that does not run says why', () => {
    for (const b of blocks.filter((x) => x.notRun !== undefined)) expect(b.notRun, `${b.file}:${b.line}: not-run without a reason`).to.not.equal('');
  });

  toRun.forEach((block, index) => {
    it(`${block.file}:${block.line} (${block.language})`, () => {
      const [program, ...args] = command(block, substitute(block.code, ports), work.dir, index);
      const r = spawnSync(program, args, {
        cwd: work.dir, encoding: 'utf8', timeout: BLOCK_TIMEOUT_MS, env: { ...process.env, PATH: work.path },
      });
      const context = `${block.file}:${block.line}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;
      expect(r.error, context).to.equal(undefined);
      expect(r.status, context).to.equal(0);
      if (block.output) expect(r.stdout, context).to.match(block.output);
    });
  });
});
