// `pesim jobq`: the job-queue service (spec docs/spec/job-queue-service.md) on port 8000, configured from
// defaults, a YAML/JSON config file (--config), the environment and these options.
// The service is imported when the command runs (see main.ts).
import type { Command } from 'commander';
import { examples } from './help.js';
import { stopSignals } from './stop-signals.js';

export function registerJobq(program: Command): void {
  program
    .command('jobq')
    .description('run the simulation job-queue service (default 0.0.0.0:8000; API reference at /docs)')
    .option('--host <host>', 'interface to listen on (env JOBQ_API_HOST; default 0.0.0.0)')
    .option('--port <port>', 'port (env JOBQ_API_PORT; default 8000)')
    .option('--config <file>', 'YAML or JSON config file (api.*, orchestration.*, cache.*, simulator.*)')
    .option('--simulator-mode <mode>', 'embedded (runs on this service) or xmlrpc (on the simulator at simulator.host:port) (env JOBQ_SIMULATOR_MODE)')
    .addHelpText('after', examples(
      ['pesim jobq', 'serve on http://0.0.0.0:8000 (a warning when no API key is set)'],
      ['pesim jobq --host 127.0.0.1 --port 0', 'on loopback only, on a free port (printed)'],
      ['pesim jobq --config jobq.yaml --simulator-mode xmlrpc', 'with the settings of a YAML or JSON file, simulating on the XML-RPC simulator'],
    ))
    .action(async (options: { host?: string; port?: string; config?: string; simulatorMode?: string }) => {
      const [{ exposureWarning, loadJobqConfig }, { startJobq }, { tuneV8ForService }] = await Promise.all([
        import('../jobq/config.js'), import('../jobq/server.js'), import('../http/v8-tuning.js'),
      ]);
      const overrides = { 'api.host': options.host, 'api.port': options.port, 'simulator.mode': options.simulatorMode };
      const config = loadJobqConfig({ file: options.config, overrides });
      const warning = exposureWarning(config);
      if (warning) console.warn(`pesim: warning: ${warning}`);
      tuneV8ForService();
      const signals = stopSignals();
      const jobq = await startJobq(config);
      signals.ready();
      console.log(`pesim: job-queue service listening on ${jobq.url} (API reference ${jobq.url}/docs, data ${config.data_dir}/jobq, models ${config.simulator.models_dir})`);
      console.log(`pesim: ${await signals.stopped}: stopping (queued tasks stay queued)`);
      await jobq.close().catch((error: Error) => console.error(`pesim: the job-queue service did not close cleanly: ${error.message}`));
    });
}
