// `pesim serve`: the simulation service (HTTP interface on /api/v1, API reference, health). The
// configuration comes from defaults, --config / SIM_CONFIG (.properties or YAML, sim.api.* keys),
// environment variables, then the flags. SIGINT or SIGTERM stops accepting connections, ends open
// streams and stops the job runtime; queued work stays in the SQLite store and runs after a restart.
// The service is imported when the command runs (see main.ts).
import type { Command } from 'commander';
import { CONFIG_KEYS, loadSimulationServiceConfig, type SimulationServiceConfig } from '../server/config.js';
import { stopSignals } from './stop-signals.js';
import { examples } from './help.js';

interface ServeOptions {
  port?: string;
  host?: string;
  config?: string;
  dataDir?: string;
  rmiPort?: string;
}

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('run the simulation service: HTTP API on /api/v1, Swagger UI on /swagger-ui/, OpenAPI on /v3/api-docs')
    .option('--port <port>', 'port (env SIM_PORT, default 8080; 0 picks a free one)')
    .option('--host <host>', 'interface to listen on (env SIM_HOST, default 127.0.0.1; 0.0.0.0 must be asked for)')
    .option('--config <file>', 'configuration file, .properties or .yml with sim.api.* keys (env SIM_CONFIG)')
    .option('--data-dir <dir>', 'directory of the database, results and cache (env PESIM_DATA_DIR, default ./data)')
    .option('--rmi-port <port>', 'XML-RPC remote-control port on the same host (env SIM_RMI_PORT, default 1099; 0 turns it off)')
    .addHelpText('after', `\nSettings (property / environment variable):\n${CONFIG_KEYS.map((k) => `  ${k.property.padEnd(32)} ${k.env}`).join('\n')}`)
    .addHelpText('after', examples(
      ['pesim serve', 'serve on http://127.0.0.1:8080 with the data in ./data'],
      ['pesim serve --port 0 --data-dir /var/lib/pesim --rmi-port 0', 'on a free port (printed), another data directory, no XML-RPC'],
      ['SIM_API_AUTH_ENABLED=true SIM_API_KEYS=secret pesim serve --host 0.0.0.0 --config sim.yml', 'on every interface, API key required, settings from a file'],
    ))
    .action(async (options: ServeOptions) => {
      // Before the service loads @tsoa/runtime: the validator.js functions it uses, not all 113 modules.
      (await import('../http/tsoa/lean-validator.js')).installLeanValidator();
      const [{ startSimulationService }, { tuneV8ForService }, { setFlagsFromString }] = await Promise.all([
        import('../server/server.js'), import('../http/v8-tuning.js'), import('node:v8'),
      ]);
      const overrides: Partial<SimulationServiceConfig> = {};
      if (options.port !== undefined) {
        const port = Number(options.port);
        if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be an integer 0–65535, got ${options.port}`);
        overrides.port = port;
      }
      if (options.host !== undefined) overrides.host = options.host;
      if (options.rmiPort !== undefined) {
        const rmiPort = Number(options.rmiPort);
        if (!Number.isInteger(rmiPort) || rmiPort < 0 || rmiPort > 65535) throw new Error(`--rmi-port must be an integer 0–65535 (0: off), got ${options.rmiPort}`);
        overrides.rmiPort = rmiPort;
      }
      if (options.dataDir !== undefined) overrides.dataDir = options.dataDir;
      const config = loadSimulationServiceConfig({ configFile: options.config, overrides });
      // The service's V8 interrupt budget (http/v8-tuning.ts), checked now and set once it has
      // started: during the start-up it would have V8 optimise code that runs once (≈ 5 % of it).
      let v8Flags: string | undefined;
      tuneV8ForService({ setFlags: (flags) => { v8Flags = flags; } });
      const signals = stopSignals();
      const service = await startSimulationService(config);
      if (v8Flags) setFlagsFromString(v8Flags);
      signals.ready();
      console.log(`pesim: simulation service on ${service.url}/api/v1/health (API reference: ${service.url}/swagger-ui/)`);
      console.log(`pesim: dashboard on ${service.url}/`);
      if (service.rmiUrl) console.log(`pesim: XML-RPC remote control on ${service.rmiUrl}`);
      console.log(`pesim: ${await signals.stopped}: stopping (queued simulations stay queued)`);
      await service.close();
    });
}
