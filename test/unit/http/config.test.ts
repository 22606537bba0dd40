// Configuration of the simulation service: defaults, .properties and YAML files with sim.api.*
// keys, environment variables over files, overrides last, and clear messages for bad values.
import { expect } from 'chai';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadSimulationServiceConfig, parseSize } from '../../../src/server/config.js';

const dir = mkdtempSync(join(tmpdir(), 'pesim-config-'));
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('simulation service configuration', () => {
  it('has the documented defaults', () => {
    const c = loadSimulationServiceConfig({ env: {} });
    expect(c).to.include({ port: 8080, host: '127.0.0.1', authEnabled: false, maxBodyBytes: 50 * 1024 * 1024, maxSteps: 5e7, maxBatchSize: 100_000, sseHeartbeatSeconds: 15 });
    expect(c.apiKeys).to.deep.equal([]);
  });

  it('reads Spring-style properties, then lets the environment and overrides win', () => {
    const props = file('a.properties', '# comment\nsim.api.port=9090\nsim.api.auth-enabled = true\nsim.api.keys=one, two\nsim.api.max-body-size=1MiB\n');
    const c = loadSimulationServiceConfig({ configFile: props, env: { SIM_PORT: '9191' } });
    expect(c.port).to.equal(9191);
    expect(c.authEnabled).to.equal(true);
    expect(c.apiKeys).to.deep.equal(['one', 'two']);
    expect(c.maxBodyBytes).to.equal(1024 * 1024);
    expect(loadSimulationServiceConfig({ configFile: props, env: {}, overrides: { port: 1234 } }).port).to.equal(1234);
  });

  it('reads nested YAML keys, and SIM_CONFIG names the file', () => {
    const yml = file('b.yaml', 'sim:\n  api:\n    host: 0.0.0.0\n    keys: [k1, k2]\n    max-steps: 1000\n');
    const c = loadSimulationServiceConfig({ env: { SIM_CONFIG: yml, SIM_API_AUTH_ENABLED: 'true' } });
    expect(c.host).to.equal('0.0.0.0');
    expect(c.apiKeys).to.deep.equal(['k1', 'k2']);
    expect(c.maxSteps).to.equal(1000);
    expect(c.authEnabled).to.equal(true);
  });

  it('names the setting at fault', () => {
    expect(() => loadSimulationServiceConfig({ env: { SIM_PORT: 'eighty' } })).to.throw(ConfigError, /SIM_PORT must be an integer/);
    expect(() => loadSimulationServiceConfig({ env: { SIM_API_AUTH_ENABLED: 'maybe' } })).to.throw(ConfigError, /SIM_API_AUTH_ENABLED must be true or false/);
    expect(() => loadSimulationServiceConfig({ env: { SIM_API_AUTH_ENABLED: 'true' } })).to.throw(ConfigError, /no key is configured/);
    expect(() => loadSimulationServiceConfig({ configFile: file('c.properties', 'sim.api.prot=1\n'), env: {} })).to.throw(ConfigError, /unknown setting sim\.api\.prot/);
    expect(() => loadSimulationServiceConfig({ configFile: join(dir, 'missing.yml'), env: {} })).to.throw(ConfigError, /cannot read the config file/);
    expect(() => loadSimulationServiceConfig({ env: { SIM_LOG_LEVEL: 'loud' } })).to.throw(ConfigError, /SIM_LOG_LEVEL must be one of/);
  });

  it('parses sizes with units', () => {
    expect(parseSize('52428800', 'x')).to.equal(52428800);
    expect(parseSize('50MiB', 'x')).to.equal(50 * 1024 * 1024);
    expect(parseSize('2 kb', 'x')).to.equal(2000);
    expect(() => parseSize('50 parsecs', 'size')).to.throw(ConfigError, /size must be a size/);
  });
});
