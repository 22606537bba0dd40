// `pesim jobq`: the job-queue service (spec job-queue-service.md) on port 8000, configured from
// defaults, a YAML/JSON config file (--config), the environment and these options.
import type { Command } from 'commander';
import { exposureWarning, loadConfig } from '../jobq/config.js';
import { startJobq } from '../jobq/server.js';
import { tuneV8ForService } from '../http/v8-tuning.js';

export function registerJobq(program: Command): void {
  program
    .command('jobq')
    .description('run the simulation job-queue service (default 0.0.0.0:8000; API reference at /docs)')
    .option('--host <host>', 'interface to listen on (env JOBQ_API_HOST; default 0.0.0.0)')
    .option('--port <port>', 'port (env JOBQ_API_PORT; default 8000)')
    .option('--config <file>', 'YAML or JSON config file (api.*, orchestration.*, cache.*, simulator.*)')
    .option('--simulator-mode <mode>', 'embedded (runs on this service) or xmlrpc (on the simulator at simulator.host:port) (env JOBQ_SIMULATOR_MODE)')
    .action(async (options: { host?: string; port?: string; config?: string; simulatorMode?: string }) => {
      const overrides = { 'api.host': options.host, 'api.port': options.port, 'simulator.mode': options.simulatorMode };
      const config = loadConfig({ file: options.config, overrides });
      const warning = exposureWarning(config);
      if (warning) console.warn(`pesim: warning: ${warning}`);
      tuneV8ForService();
      const jobq = await startJobq(config);
      console.log(`pesim: job-queue service listening on ${jobq.url} (API reference ${jobq.url}/docs, data ${config.data_dir}/jobq, models ${config.simulator.models_dir})`);
      await new Promise<void>((resolve) => {
        const stop = (): void => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          void jobq.close().then(resolve, resolve);
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}
