// `pesim serve` as a user starts it: the XML-RPC port from --rmi-port, SIM_RMI_ROOT from the
// environment, the address printed at start-up, and Python's client running a model through it.
import { expect } from 'chai';
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUCK_1MS, runPython } from './harness.js';
import { freePort } from '../../fixtures/free-port.js';

const bin = fileURLToPath(new URL('../../../bin/pesim.js', import.meta.url));

describe('pesim serve --rmi-port', function () {
  this.timeout(60_000);
  it('listens for XML-RPC on the port asked for, paths under SIM_RMI_ROOT', async () => {
    const root = mkdtempSync(join(tmpdir(), 'pesim-rmi-cli-'));
    writeFileSync(join(root, 'buck.json'), JSON.stringify(BUCK_1MS));
    const port = await freePort();
    const env = { ...process.env, SIM_RMI_ROOT: root, PESIM_DATA_DIR: join(root, 'data'), SIM_LOG_LEVEL: 'warn' };
    const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--host', '127.0.0.1', '--rmi-port', String(port)], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let printed = '';
        child.stdout.on('data', (chunk: Buffer) => {
          printed += chunk.toString();
          const match = /XML-RPC remote control on (http:\/\/\S+)/.exec(printed);
          if (match) resolve(match[1]);
        });
        child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
      });
      expect(url).to.equal(`http://127.0.0.1:${port}/RPC2`);
      const r = await runPython<{ name: string; rows: number; escape: string }>(`
name = server.plecs.load("buck.json")
rows = len(server.plecs.simulate(name)["Values"])
try:
    server.loadCircuit("/etc/passwd")
    escape = "no fault"
except xmlrpc.Fault as f:
    escape = f.faultString
out({"name": name, "rows": rows, "escape": escape})
`, url);
      expect(r).to.deep.include({ name: 'buck', rows: 2 });
      expect(r.escape).to.match(/^PATH_OUTSIDE_ROOT: /);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('names the setting when the XML-RPC port is taken', async () => {
    const holder = createServer().listen(0, '127.0.0.1');
    await once(holder, 'listening');
    const { port } = holder.address() as { port: number };
    try {
      const r = spawnSync(process.execPath, [bin, 'serve', '--port', '0', '--host', '127.0.0.1', '--rmi-port', String(port), '--data-dir', join(tmpdir(), 'pesim-rmi-cli-taken')], { encoding: 'utf8', timeout: 30_000 });
      expect(r.status).to.not.equal(0);
      expect(r.stderr).to.contain(`the XML-RPC port 127.0.0.1:${port} (SIM_RMI_PORT, --rmi-port; 0 turns it off)`).and.contain('EADDRINUSE');
    } finally {
      holder.close();
      rmSync(join(tmpdir(), 'pesim-rmi-cli-taken'), { recursive: true, force: true });
    }
  });
});
