// What a process loads: the Node API entry (`import('pesim')`) loads the engine and the readers
// only, and the command line loads a command's modules only when that command runs. Each case runs
// the compiled package (dist/, built by `npm run build:ts`) in a child process that records every
// module it resolves (test/fixtures/loaded-modules); `pesim serve` listens before it loads what it
// needs only for some requests. Also: help with examples for every command,
// and the documented exit codes.
import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bin = join(root, 'bin', 'pesim.js');
const register = join(root, 'test', 'fixtures', 'loaded-modules', 'register.mjs');
const buckDeck = join(root, 'bench', 'peers', 'buck.cir');
const dir = mkdtempSync(join(tmpdir(), 'pesim-startup-'));

/** Packages that only the services, the job runtime or the result files need (some copied into dist/vendor). */
const SERVICE_PACKAGES = [
  'better-sqlite3', 'koa', '@koa', 'koa-body', 'tsoa', '@tsoa', 'ws', 'sockjs', 'pino', 'piscina', 'bullmq', 'ioredis',
  'parquet-wasm', 'apache-arrow', 'h5wasm', 'csv-stringify', 'swagger-ui-dist', 'swagger-ui', 'redoc', 'saxes', 'uplot',
];

let counter = 0;
/** Runs `node ARGS` recording the modules it loads; returns the exit status, output and the package names and dist/ files loaded. */
function traced(args: string[]): { status: number | null; stdout: string; stderr: string; packages: Set<string>; files: string[] } {
  const log = join(dir, `modules-${counter++}.log`);
  const r = spawnSync(process.execPath, ['--import', register, ...args], {
    cwd: root, encoding: 'utf8', env: { ...process.env, PESIM_MODULE_LOG: log }, timeout: 60_000,
  });
  const urls = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [];
  const packages = new Set<string>();
  for (const url of urls) {
    // A package in node_modules, or one copied into dist/vendor at build time (scripts/build-vendor.mjs).
    const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url) ?? /\/dist\/vendor\/([^/]+)\//.exec(url);
    if (match) packages.add(match[1].split('/')[0]);
  }
  const files = urls.filter((u) => u.includes('/dist/src/')).map((u) => u.slice(u.indexOf('/dist/src/') + 10));
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, packages, files };
}

const serviceLoaded = (packages: Set<string>): string[] => SERVICE_PACKAGES.filter((p) => packages.has(p));

/** The package names and dist/ files among module URLs. */
function modulesOf(urls: string[]): { packages: Set<string>; files: string[] } {
  const packages = new Set<string>();
  for (const url of urls) {
    const match = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
    if (match) packages.add(match[1]);
  }
  return { packages, files: urls.filter((u) => u.includes('/dist/src/')).map((u) => u.slice(u.indexOf('/dist/src/') + 10)) };
}

/**
 * Starts `pesim ARGS` recording its modules until it prints `ready`, then stops it (SIGTERM); returns
 * what it had loaded when it printed the line, and every module URL it loaded until it exited.
 */
async function tracedUntilReady(args: string[], ready: RegExp): Promise<{ before: ReturnType<typeof modulesOf>; all: string[] }> {
  const log = join(dir, `modules-${counter++}.log`);
  const child = spawn(process.execPath, ['--import', register, bin, ...args], {
    cwd: root, env: { ...process.env, PESIM_MODULE_LOG: log, PESIM_MODULE_LOG_MARK: ready.source }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise((resolve) => child.once('close', resolve));
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not ready within 30 s: ${output}`)), 30_000);
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (ready.test(output)) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString(); });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`exited with ${code} before it was ready: ${output}`));
      });
    });
  } finally {
    child.removeAllListeners('exit');
    child.kill('SIGTERM');
    await exited;
  }
  const urls = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  expect(urls, 'the ready line was marked in the module log').to.include('#mark');
  return { before: modulesOf(urls.slice(0, urls.indexOf('#mark'))), all: urls };
}

describe('start-up: what the Node API and the command line load', function () {
  before(function () {
    if (!existsSync(join(root, 'dist', 'src', 'cli', 'main.js'))) throw new Error('dist/ is not built: run `npm run build:ts`');
  });

  it('import("pesim") loads the engine and the readers, no service, store or result-file library', () => {
    const r = traced(['--input-type=module', '-e', `
      const pesim = await import('./dist/src/index.js');
      const { readFileSync } = await import('node:fs');
      const read = await pesim.readCircuitFile(readFileSync(${JSON.stringify(buckDeck)}), 'buck.cir', {});
      read.netlist.settings.tEnd = 1e-4;
      console.log(pesim.simulateSync(read.netlist).stats.steps);`]);
    expect(r.status, r.stderr).to.equal(0);
    expect(Number(r.stdout.trim())).to.equal(1000);
    expect(serviceLoaded(r.packages)).to.deep.equal([]);
    expect(r.files.filter((f) => f !== 'index.js' && !/^(engine|formats|errors)\//.test(f))).to.deep.equal([]);
  });

  it('`pesim --version` loads the command definitions only', () => {
    const r = traced([bin, '--version']);
    expect(r.status).to.equal(0);
    expect(r.stdout.trim()).to.equal(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version);
    expect([...r.packages].sort()).to.deep.equal(['commander', 'js-yaml']);
    // The command files and the settings their help shows, none of the modules that do the work.
    const working = /^(engine\/(index|simulate)|formats\/(read|netlist)|server\/(server|app)|jobq\/(server|app)|jobs\/(runtime|executors\/bullmq\/remote-worker)|store|script|rmi|realtime)\b/;
    expect(r.files.filter((f) => working.test(f))).to.deep.equal([]);
    expect(r.files).to.include.members(['cli/run.js', 'cli/serve.js', 'cli/worker.js']);
  });

  it('`pesim run` loads the engine and the readers, not the services', () => {
    const r = traced([bin, 'run', buckDeck, '--tend', '1e-4']);
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.contain('1000 steps');
    expect(serviceLoaded(r.packages)).to.deep.equal([]);
  });

  it('`pesim serve` listens before it loads the body parser, the STOMP endpoints and the XML-RPC server', async function () {
    this.timeout(60_000);
    const dataDir = mkdtempSync(join(dir, 'serve-'));
    const { before, all } = await tracedUntilReady(['serve', '--port', '0', '--rmi-port', '0', '--data-dir', dataDir], /simulation service on http:\/\/\S+/);
    expect(before.packages.has('koa'), 'the HTTP app is loaded').to.equal(true);
    expect(['koa-body', 'zod', 'formidable', 'co-body', 'sockjs', 'ws', 'faye-websocket'].filter((p) => before.packages.has(p))).to.deep.equal([]);
    expect(before.files.filter((f) => /^(realtime\/(index|broker|ws-raw|sockjs-endpoint)|rmi\/)/.test(f))).to.deep.equal([]);
    // tsoa's validator.js: the few functions it uses, not the library's 113 modules (http/tsoa/lean-validator.ts).
    expect(all.filter((u) => u.includes('/node_modules/validator/lib/')).length).to.be.lessThan(12);
  });

  it('prints help with examples for every command, and for `pesim help COMMAND`', () => {
    const top = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
    expect(top.status).to.equal(0);
    expect(top.stdout).to.contain('Exit codes:');
    const listed = top.stdout.slice(top.stdout.indexOf('Commands:'), top.stdout.indexOf('Exit codes:'));
    const commands = [...listed.matchAll(/^ {2}([a-z]+) /gm)].map((m) => m[1]).filter((c) => c !== 'help');
    expect(commands).to.include.members(['serve', 'jobq', 'run', 'validate']);
    for (const command of commands) {
      const r = spawnSync(process.execPath, [bin, 'help', command], { encoding: 'utf8' });
      expect(r.status, command).to.equal(0);
      expect(r.stdout, command).to.match(new RegExp(`Usage: pesim ${command}[\\s\\S]*Examples:\\n {2}\\$ pesim ${command}`));
    }
  });

  it('exits 2 on a usage error, 1 on a failure, 3 when the engine cannot be loaded', () => {
    const unknown = spawnSync(process.execPath, [bin, 'run', buckDeck, '--no-such-option'], { encoding: 'utf8' });
    expect(unknown.status).to.equal(2);
    expect(unknown.stderr).to.contain('--no-such-option');
    expect(spawnSync(process.execPath, [bin, 'run'], { encoding: 'utf8' }).status).to.equal(2);
    const missing = spawnSync(process.execPath, [bin, 'run', join(dir, 'absent.cir')], { encoding: 'utf8' });
    expect(missing.status).to.equal(1);
    const noEngine = spawnSync(process.execPath, [bin, 'run', buckDeck], {
      encoding: 'utf8', env: { ...process.env, PESIM_ADDON_PATH: join(dir, 'absent.node') },
    });
    expect(noEngine.status, noEngine.stderr).to.equal(3);
    expect(noEngine.stderr).to.contain('native engine');
  });
});
