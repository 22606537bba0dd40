// Configuration (file, environment, command line, start-up checks), the `pesim jobq` command, the
// opt-in access controls (Bearer keys, rate limit), CORS origins, QUEUE_FULL and
// SIMULATOR_CONNECTION_ERROR.
import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { ConfigError, exposureWarning, loadJobqConfig } from '../../../src/jobq/config.js';
import { startTestService, type TestService } from './harness.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'pesim-jobq-config-'));
const runCli = `import { main } from './src/cli/main.ts'; process.exitCode = await main(['node', 'pesim', ...process.argv.slice(1)]);`;
const problemsOf = (fn: () => unknown): string[] => {
  try {
    fn();
  } catch (error) {
    expect(error).to.be.instanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
};

describe('job-queue service: configuration and access', function () {
  this.timeout(120_000);
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('builds the configuration from defaults, a YAML file, the environment and options, in that order', () => {
    const file = join(dir, 'jobq.yaml');
    writeFileSync(file, 'api:\n  port: 9001\n  log_level: warning\n  cors_origins: [http://a.test]\norchestration:\n  retry_delay: 0.5\n  max_concurrent_simulations: 2\ncache:\n  storage_format: csv\n  compression: gzip\n  ttl_seconds: 0\n');
    const config = loadJobqConfig({ file, env: { JOBQ_API_PORT: '9002', JOBQ_MODELS_DIR: dir, PESIM_DATA_DIR: join(dir, 'data') }, overrides: { 'api.host': '127.0.0.1' } });
    expect(config.api).to.include({ port: 9002, host: '127.0.0.1', log_level: 'warning' });
    expect(config.api.cors_origins).to.deep.equal(['http://a.test']);
    expect(config.orchestration).to.include({ retry_delay: 0.5, max_concurrent_simulations: 2, batch_size: 4, retry_attempts: 3, queue_size: 1000, task_timeout: 3600 });
    expect(config.cache).to.include({ storage_format: 'csv', compression: 'gzip', ttl_seconds: 0 });
    expect(config.simulator).to.include({ models_dir: dir, port: 1080, timeout: 300 });
    expect(config.data_dir).to.equal(join(dir, 'data'));
    const defaults = loadJobqConfig({ env: {} });
    expect(defaults.api).to.include({ host: '0.0.0.0', port: 8000, log_level: 'info', reload: false });
    expect(defaults.cache.ttl_seconds).to.equal(86400);
  });

  it('reports every invalid setting by name, an unsupported cache format × compression, and reload', () => {
    const file = join(dir, 'bad.json');
    writeFileSync(file, JSON.stringify({ api: { port: 'eighty', hots: 'x', reload: true }, orchestration: { retry_attempts: -1 }, cache: { storage_format: 'hdf5', compression: 'snappy' } }));
    const problems = problemsOf(() => loadJobqConfig({ file, env: { JOBQ_API_LOG_LEVEL: 'loud' } }));
    expect(problems.join('\n')).to.contain('api.port: must be an integer from 0 to 65535, got "eighty"')
      .and.contain('api.hots: unknown setting')
      .and.contain('orchestration.retry_attempts')
      .and.contain('cache.compression: hdf5 does not support snappy compression; hdf5 supports gzip, none')
      .and.contain('JOBQ_API_LOG_LEVEL: api.log_level: must be one of debug, info, warning, error')
      .and.contain('api.reload');
    writeFileSync(join(dir, 'broken.yaml'), 'api: [unclosed');
    expect(problemsOf(() => loadJobqConfig({ file: join(dir, 'broken.yaml'), env: {} }))[0]).to.contain('not valid YAML');
  });

  it('warns when listening beyond loopback without keys', () => {
    const config = loadJobqConfig({ env: {} });
    expect(exposureWarning(config)).to.contain('0.0.0.0');
    config.api.api_keys = ['k'];
    expect(exposureWarning(config)).to.equal(undefined);
    config.api.api_keys = [];
    config.api.host = '127.0.0.1';
    expect(exposureWarning(config)).to.equal(undefined);
  });

  it('`pesim jobq` refuses a bad config with the problems, and serves with a good one', async () => {
    const bad = join(dir, 'combo.yaml');
    writeFileSync(bad, 'cache:\n  storage_format: csv\n  compression: lz4\n');
    const refused = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', runCli, 'jobq', '--config', bad], { cwd: root, encoding: 'utf8', timeout: 90_000 });
    expect(refused.status).to.equal(1);
    expect(refused.stderr).to.contain('cache.compression: csv does not support lz4 compression');

    const env = { ...process.env, PESIM_DATA_DIR: join(dir, 'cli-data'), JOBQ_MODELS_DIR: dir, JOBQ_API_LOG_LEVEL: 'error' };
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', runCli, 'jobq', '--host', '127.0.0.1', '--port', '0'], { cwd: root, env });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (match) resolve(match[1]);
        });
        child.once('exit', (code) => reject(new Error(`exited with ${code}: ${out}`)));
      });
      const health = (await (await fetch(`${url}/health`)).json()) as Record<string, unknown>;
      expect(health).to.include({ status: 'healthy', version: '1.0.0' });
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  });

  describe('with keys, a rate limit, restricted origins and a small queue', () => {
    let service: TestService;
    before(async () => {
      service = await startTestService((c) => {
        c.api.api_keys = ['secret-1'];
        c.api.cors_origins = ['http://allowed.test'];
        c.api.rate_limit = { enabled: true, requests_per_minute: 5, authenticated_requests_per_minute: 8 };
        c.orchestration.queue_size = 2;
        c.orchestration.max_concurrent_simulations = 1;
      });
    });
    after(async () => service.dispose());
    const auth = { authorization: 'Bearer secret-1' };

    it('requires the Bearer key except on health and the API reference; counts requests per client', async () => {
      const anonymous = await service.request('GET', '/stats');
      expect(anonymous.status).to.equal(401);
      expect(anonymous.body).to.include({ error_code: 'UNAUTHORIZED' });
      expect((await service.request('GET', '/stats', undefined, { authorization: 'Bearer wrong' })).status).to.equal(401);
      expect((await service.request('GET', '/health')).status).to.equal(200);
      expect((await service.request('GET', '/openapi.json')).status).to.equal(200);
      const ok = await service.request('GET', '/stats', undefined, auth);
      expect(ok.status).to.equal(200);
      expect(ok.headers.get('x-ratelimit-limit')).to.equal('8');
      const fifth = await service.request('GET', '/openapi.json');
      expect(fifth.headers.get('x-ratelimit-remaining')).to.equal('0');
      const spec = fifth.body as { security?: unknown };
      expect(spec.security).to.deep.equal([{ bearer: [] }]);
      // Anonymous budget: 5 per minute, refused requests included (the requests above used 5 of them).
      expect(spec).to.have.property('paths');
      const limited = await service.request('GET', '/health');
      expect(limited.status).to.equal(429);
      expect(limited.body).to.include({ error_code: 'RATE_LIMITED' });
      expect(Number(limited.headers.get('retry-after'))).to.be.within(1, 60);
      expect(Number(limited.headers.get('x-ratelimit-reset'))).to.be.greaterThan(Date.now() / 1000);
    });

    it('refuses WebSocket connections without the key', async () => {
      const ws = `${service.url.replace('http', 'ws')}/ws`;
      const refused = await new Promise<number>((resolve) => {
        const socket = new WebSocket(ws);
        socket.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        socket.once('open', () => resolve(101));
      });
      expect(refused).to.equal(401);
      const socket = new WebSocket(`${ws}?token=secret-1`);
      await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      socket.close();
    });

    it('allows only the configured CORS origins', async () => {
      const preflight = (origin: string) => fetch(`${service.url}/health`, { method: 'OPTIONS', headers: { Origin: origin, 'Access-Control-Request-Method': 'GET' } });
      expect((await preflight('http://allowed.test')).headers.get('access-control-allow-origin')).to.equal('http://allowed.test');
      expect((await preflight('http://other.test')).headers.get('access-control-allow-origin')).to.equal(null);
    });

    it('503 QUEUE_FULL with Retry-After beyond queue_size, and 500 SIMULATOR_CONNECTION_ERROR without a simulator', async () => {
      const submit = () => service.request('POST', '/simulations', { model_file: 'long.json' }, auth);
      const first = await submit();
      expect((await submit()).status).to.equal(201);
      const full = await submit();
      expect(full.status).to.equal(503);
      expect(full.body).to.include({ error_code: 'QUEUE_FULL' });
      expect(Number(full.headers.get('retry-after'))).to.be.at.least(1);
      await service.request('DELETE', `/simulations/${(first.body as { task_id: string }).task_id}`, undefined, auth);

      await service.runtime.executor.close();
      const down = await service.request('POST', '/simulations', { model_file: 'rc.json' }, auth);
      expect(down.status).to.equal(500);
      expect(down.body).to.include({ error_code: 'SIMULATOR_CONNECTION_ERROR' });
      expect((down.body as { suggestion: string }).suggestion).to.be.a('string').with.length.greaterThan(0);
      expect((await service.request('GET', '/health', undefined, auth)).body).to.include({ status: 'degraded', simulator_connected: false });
    });
  });
});
