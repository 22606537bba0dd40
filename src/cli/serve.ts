// `pesim serve`: the simulation service. Until the HTTP interface lands it answers the health
// endpoints (/api/v1/health, /actuator/health) with the engine's status.
import { createServer } from 'node:http';
import type { Command } from 'commander';
import { engineInfo } from '../engine/index.js';

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('run the simulation service (health endpoints: /api/v1/health, /actuator/health)')
    .option('--port <port>', 'port (env SIM_PORT)', process.env.SIM_PORT ?? '8080')
    .option('--host <host>', 'interface to listen on (env SIM_HOST); 0.0.0.0 must be asked for', process.env.SIM_HOST ?? '127.0.0.1')
    .action(async (options: { port: string; host: string }) => {
      const port = Number(options.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be an integer 0–65535, got ${options.port}`);
      const engine = engineInfo();
      const started = Date.now();
      const server = createServer((req, res) => {
        const path = (req.url ?? '/').split('?')[0];
        const body =
          path === '/api/v1/health'
            ? { status: 'UP', version: '0.1.0', uptimeSeconds: (Date.now() - started) / 1000, engine: { version: engine.version, eigen: engine.eigen } }
            : path === '/actuator/health'
              ? { status: 'UP', components: { engine: { status: 'UP' } } }
              : undefined;
        res.statusCode = body ? 200 : 404;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(body ?? { error: 'NOT_FOUND', message: `No route ${path}`, path, timestamp: new Date().toISOString() }));
      });
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, options.host, resolve);
      });
      const address = server.address();
      const actual = typeof address === 'object' && address ? address.port : port;
      console.log(`pesim: simulation service listening on http://${options.host}:${actual}/api/v1/health`);
      await new Promise<void>((resolve) => {
        const stop = (): void => void server.close(() => resolve());
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
    });
}
