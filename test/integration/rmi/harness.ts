// The XML-RPC tests' set-up: the simulation service with its remote-control port on loopback (a
// probed free port), a temporary SIM_RMI_ROOT holding 1 ms buck converters as JSON netlists, and
// `python()`, which runs a snippet with Python's xmlrpc.client (test/fixtures/xmlrpc_run.py) and
// returns the value it printed.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Netlist } from '../../../src/formats/netlist.js';
import type { SimulationServiceConfig } from '../../../src/server/config.js';
import { buck } from '../../fixtures/circuits.js';
import { startHarness, type Harness } from '../simulation/harness.js';
import { freePort } from '../../fixtures/free-port.js';

const RUNNER = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures/xmlrpc_run.py');

/** A buck converter of 1 ms at 1 µs steps: SCOPE.1 = [vout, iL]. */
export const BUCK_1MS = buck({ tEnd: 1e-3, dt: 1e-6 });

/** The same buck with its input voltage as the global parameter $Vin (48 V). */
export const BUCK_VIN: Netlist = {
  ...BUCK_1MS,
  parameters: { Vin: 48 },
  elements: BUCK_1MS.elements.map((e) => (e.name === 'V.1' ? { ...e, params: { waveform: 'dc', value: '$Vin' } } : e)),
};


export interface RmiHarness extends Harness {
  /** http://127.0.0.1:<port>/RPC2 */
  rmiUrl: string;
  root: string;
  /** Runs a snippet under xmlrpc_run.py against `url` (default rmiUrl); resolves with what it printed with out(). */
  python<T = unknown>(snippet: string, url?: string): Promise<T>;
}

export function runPython<T>(snippet: string, url: string, timeoutMs = 60_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = execFile('python3', [RUNNER, url], { timeout: timeoutMs, maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) {
        reject(new Error(`python3 failed: ${error.message}\n${stderr}`));
        return;
      }
      const lines = stdout.trim().split('\n');
      try {
        resolve(JSON.parse(lines[lines.length - 1]) as T);
      } catch {
        reject(new Error(`python3 printed no JSON: ${stdout.slice(0, 500)}\n${stderr}`));
      }
    });
    child.stdin!.end(snippet);
  });
}

export async function startRmiHarness(config: Partial<SimulationServiceConfig> = {}): Promise<RmiHarness> {
  const root = mkdtempSync(join(tmpdir(), 'pesim-rmi-root-'));
  mkdirSync(join(root, 'models'));
  writeFileSync(join(root, 'models', 'buck.json'), JSON.stringify(BUCK_1MS));
  writeFileSync(join(root, 'models', 'buck-vin.json'), JSON.stringify(BUCK_VIN));
  copyFileSync(fileURLToPath(new URL('../../fixtures/gecko/buck_simple.ipes', import.meta.url)), join(root, 'models', 'buck.ipes'));
  const rmiPort = await freePort();
  const harness = await startHarness({ rmiPort, rmiRoot: root, ...config });
  const rmiUrl = harness.handle.rmiUrl!;
  return {
    ...harness,
    rmiUrl,
    root,
    python: <T>(snippet: string, url = rmiUrl) => runPython<T>(snippet, url),
    async close() {
      await harness.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
