// Assembly of the XML-RPC remote-control server of `pesim serve`: RemoteSessions (the shared one
// at / and /RPC2, one per client id at /RPC2/<client-id>, client-sessions.ts; their runs on the
// service's job runtime), the specification's methods, the PLECS dialect and the introspection
// methods, on their own port (SIM_RMI_PORT) and the service's host.
import { resolve } from 'node:path';
import type { Logger } from 'pino';
import { RemoteSession } from '../remote/session.js';
import { engineInfo } from '../engine/simulate.js';
import type { ServiceRuntime } from '../jobs/runtime.js';
import { ClientSessions } from './client-sessions.js';
import { batchMethods } from './batch-methods.js';
import { remoteMethods } from './remote-methods.js';
import { methodTable, type MethodTable } from './methods.js';
import { plecsMethods } from './plecs-methods.js';
import { startRmiServer, type RmiServerHandle } from './server.js';
import { ServiceRunner } from './service-runner.js';
import { systemMethods } from './system-methods.js';

export interface RmiSettings {
  host: string;
  port: number;
  /** Folder every path of loadCircuit, saveCircuit, exportData and plecs.load must stay in. */
  root: string;
  maxBodyBytes: number;
  /** Most nested XML elements in a request (default MAX_DEPTH). */
  maxDepth?: number;
  auth: { enabled: boolean; keys: readonly string[] };
  /** Largest TimeSpan / FixedStep of a plecs.simulate run. */
  maxSteps: number;
  version: string;
}

export type { RmiServerHandle } from './server.js';

/** Most nested elements in a request: about 40 levels of arrays or structs (each adds three elements). */
export const MAX_DEPTH = 128;

/** Most client sessions kept at once (client-sessions.ts). */
export const MAX_CLIENT_SESSIONS = 64;

export function startRemoteControl(settings: RmiSettings, runtime: ServiceRuntime, logger: Logger): Promise<RmiServerHandle> {
  const root = resolve(settings.root);
  const log = logger.child({ component: 'xmlrpc' });
  // The PLECS dialect keeps its models by name for every client, as PLECS Standalone does.
  const plecs = plecsMethods({ runtime, root, maxSteps: settings.maxSteps, version: settings.version, engineVersion: engineInfo().version });
  // A batch's results table is the runtime's: the same for every session.
  const batches = batchMethods(runtime);
  /** A session and the method table that serves it (system.listMethods and system.methodHelp read the table they are part of). */
  const sessionTable = (): { table: MethodTable; isRunning: () => boolean } => {
    // The runner names the session's circuit file in the simulations it submits.
    const runner = new ServiceRunner(runtime, () => session.circuitFile()?.path ?? 'circuit', settings.maxSteps);
    const session: RemoteSession = new RemoteSession({ runner, baseDir: root, root });
    let table: MethodTable = new Map();
    table = methodTable(remoteMethods(session), plecs, batches, systemMethods(() => table, (error) => log.error({ err: error }, 'XML-RPC method failed')));
    return { table, isRunning: () => session.isRunning() };
  };
  const shared = sessionTable();
  const clients = new ClientSessions(() => sessionTable(), MAX_CLIENT_SESSIONS);
  return startRmiServer({
    host: settings.host,
    port: settings.port,
    limits: { maxBodyBytes: settings.maxBodyBytes, maxDepth: settings.maxDepth ?? MAX_DEPTH },
    auth: settings.auth,
    methods: (clientId) => (clientId === undefined ? shared : clients.get(clientId)).table,
    logger: log,
  });
}
