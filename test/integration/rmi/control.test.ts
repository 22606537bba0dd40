// The specification's remote-control methods over XML-RPC, called by Python's xmlrpc.client
// (allow_none=True): load, parameters, a blocking run that the HTTP API lists, measurements and
// waveforms checked against the buck converter's physics, save and export inside SIM_RMI_ROOT, the
// faults of each method, and a stop from a second connection.
import { expect } from 'chai';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUCK_1MS, startRmiHarness, type RmiHarness } from './harness.js';

describe('XML-RPC: the specification\'s remote-control methods', function () {
  this.timeout(120_000);
  let h: RmiHarness;
  before(async () => {
    h = await startRmiHarness();
  });
  after(async () => h?.close());

  it('loads a circuit, runs it as a listed simulation and reads measurements and waveforms', async () => {
    const r = await h.python<{ summary: Record<string, unknown>; id: string; avg: number; wave: { time: number[]; values: number[] }; r: number }>(`
summary = server.loadCircuit("models/buck.json")
server.setParameter("R.1", "R", 10)
r = server.getParameter("R.1", "R")
run_id = server.runSimulation()
avg = server.getMeasurement("SCOPE.1", "ch1_avg")
wave = server.getWaveform("SCOPE.1", "ch1")
out({"summary": summary, "id": run_id, "avg": avg, "wave": wave, "r": r})
`);
    expect(r.summary.format).to.equal('json');
    expect(r.summary.scopes).to.deep.equal(['SCOPE.1']);
    expect(r.summary.components).to.include('R.1');
    expect(r.r).to.equal(10);
    expect(r.wave.time.length).to.equal(r.wave.values.length);
    expect(r.wave.time.length).to.be.greaterThan(100);
    expect(r.wave.time[r.wave.time.length - 1]).to.be.closeTo(1e-3, 1e-6);
    // The output filter charges towards duty · Vin = 24 V; after 1 ms it is on its way, below it.
    expect(r.avg).to.be.greaterThan(1).and.lessThan(30);
    const status = await h.client.waitForState(r.id);
    expect(status.status).to.equal('completed');
    const listed = await h.client.get<{ content?: { simulationId: string }[]; simulations?: { simulationId: string }[] }>('/api/v1/simulations?size=100');
    const items = (listed.body.content ?? listed.body.simulations ?? []) as { simulationId: string }[];
    expect(items.map((s) => s.simulationId)).to.include(r.id);
    const measured = status.results!.measurements;
    const key = Object.keys(measured).find((k) => /SCOPE\.1.*ch1.*avg/.test(k))!;
    expect(measured[key]).to.be.closeTo(r.avg, 1e-9 * Math.abs(r.avg));
  });

  it('the timing of the signal sources: gecko by default for .ipes, exact on request', async () => {
    const r = await h.python<unknown[]>(`
server.loadCircuit("models/buck.json")
a = server.getTiming()
server.loadCircuit("models/buck.ipes")
b = server.getTiming()
server.runSimulation()
gecko = server.getMeasurement("SCOPE.1", "ch6_avg")
server.setTiming("exact")
c = server.getTiming()
server.runSimulation()
exact = server.getMeasurement("SCOPE.1", "ch6_avg")
try:
    server.setTiming("late")
    f = None
except xmlrpc.Fault as e:
    f = [e.faultCode, e.faultString]
out([a, b, c, gecko, exact, f])
`);
    expect(r.slice(0, 3)).to.deep.equal(['exact', 'gecko', 'exact']);
    // The 35 kHz gate of duty 0.4 at dt = 1 µs: GeckoCIRCUITS' stepped rectangle and the exact one.
    expect(r[3] as number).to.not.be.closeTo(r[4] as number, 1e-3);
    expect(r[4] as number).to.be.closeTo(0.4, 0.02);
    expect((r[5] as [number, string])[0]).to.equal(9);
    expect((r[5] as [number, string])[1]).to.contain('exact, gecko');
  });

  it('a global parameter, the time settings and reset', async () => {
    const r = await h.python<unknown[]>(`
server.loadCircuit("models/buck.json")
a = server.getEndTime()
server.setEndTime(0.0005)
b = server.getEndTime()
server.setTimeStep(2e-6)
c = server.getTimeStep()
try:
    server.setGlobalParameter("nope", 1)
    g = None
except xmlrpc.Fault as f:
    g = [f.faultCode, f.faultString]
server.resetSimulation()
d = server.getEndTime()
out([a, b, c, g, d])
`);
    expect(r[0]).to.equal(1e-3);
    expect(r[1]).to.equal(5e-4);
    expect(r[2]).to.equal(2e-6);
    expect((r[3] as [number, string])[0]).to.equal(7);
    expect((r[3] as [number, string])[1]).to.match(/^UNKNOWN_PARAMETER: /);
    expect(r[4]).to.equal(1e-3);
  });

  it('sets a global parameter that the next run uses', async () => {
    const r = await h.python<number[]>(`
server.loadCircuit("models/buck-vin.json")
server.runSimulation()
at48 = server.getMeasurement("SCOPE.1", "ch1_max")
server.setGlobalParameter("Vin", 24)
vin = server.getGlobalParameter("$Vin")
component = server.getParameter("V.1", "value")
server.runSimulation()
out([at48, vin, component, server.getMeasurement("SCOPE.1", "ch1_max")])
`);
    expect(r[1]).to.equal(24);
    expect(r[2]).to.equal(24); // the $Vin reference resolved
    // A linear circuit apart from the diode drop: half the input, about half the peak output.
    expect(r[3] / r[0]).to.be.closeTo(0.5, 0.05);
  });

  it('saves and exports inside SIM_RMI_ROOT', async () => {
    const r = await h.python<string[]>(`
server.loadCircuit("models/buck.json")
server.setParameter("R.1", "R", 7)
saved = server.saveCircuit("saved.json")
server.runSimulation()
exported = server.exportData("wave.csv", "csv")
as_json = server.exportData("wave.json", "json")
as_parquet = server.exportData("wave.parquet", "parquet")
out([saved, exported, as_json, as_parquet])
`);
    expect(r[0]).to.equal(join(h.root, 'saved.json'));
    const saved = JSON.parse(readFileSync(r[0], 'utf8')) as { elements: { name: string; params: Record<string, number> }[] };
    expect(saved.elements.find((e) => e.name === 'R.1')!.params.R).to.equal(7);
    expect(existsSync(join(h.root, 'wave.csv'))).to.equal(true);
    expect(readFileSync(join(h.root, 'wave.csv'), 'utf8').split('\n').length).to.be.greaterThan(100);
    expect(existsSync(join(h.root, 'wave.json'))).to.equal(true);
    expect(readFileSync(r[3]).subarray(0, 4).toString()).to.equal('PAR1');
  });

  it('answers each method\'s faults with its code and a message naming the problem', async () => {
    const r = await h.python<[number, string][]>(`
fault(lambda: server.loadCircuit("models/missing.json"))
fault(lambda: server.loadCircuit("../outside.json"))
fault(lambda: server.loadCircuit(42))
server.loadCircuit("models/buck.json")
fault(lambda: server.getMeasurement("SCOPE.1", "ch1_avg"))
fault(lambda: server.setParameter("R.9", "R", 1))
fault(lambda: server.setParameter("R.1", "X", 1))
fault(lambda: server.setParameter("R.1", "R", "abc"))
fault(lambda: server.exportData("x.csv", "xls"))
server.runSimulation()
fault(lambda: server.getWaveform("SCOPE.1", "ch9"))
fault(lambda: server.exportData("x.xls", "xls"))
fault(lambda: server.runSimulation(1))
fault(lambda: server.noSuchMethod())
fault(lambda: server.saveCircuit("/etc/pesim.json"))
out(res)
`);
    const codes = r.map(([code]) => code);
    expect(codes).to.deep.equal([4, 3, -32602, 2, 6, 7, -32602, 9, 8, 9, -32602, -32601, 3]);
    expect(r[0][1]).to.match(/^FILE_NOT_FOUND: .*missing\.json/);
    expect(r[1][1]).to.match(/^PATH_OUTSIDE_ROOT: .*outside the remote-control root/);
    expect(r[2][1]).to.match(/loadCircuit: argument 1 \(path\) must be a string, got int/);
    expect(r[4][1]).to.match(/UNKNOWN_COMPONENT: .*R\.1/);
    expect(r[11][1]).to.match(/noSuchMethod/);
  });

  it('refuses paths that leave the root through a symbolic link, for reads and writes', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'pesim-rmi-outside-'));
    try {
      writeFileSync(join(outside, 'buck.json'), JSON.stringify(BUCK_1MS));
      symlinkSync(outside, join(h.root, 'escape'));
      const r = await h.python<[number, string][]>(`
fault(lambda: server.loadCircuit("escape/buck.json"))
fault(lambda: server.plecs.load("escape/buck.json"))
server.loadCircuit("models/buck.json")
fault(lambda: server.saveCircuit("escape/written.json"))
out(res)
`);
      expect(r.map(([code]) => code)).to.deep.equal([3, 3, 3]);
      expect(existsSync(join(outside, 'written.json'))).to.equal(false);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('stopSimulation from a second connection ends the blocked runSimulation with CANCELLED', async () => {
    // A 1-second buck at 50 ns steps (20 million steps) runs long enough to be stopped.
    const r = await h.python<{ run: [number, string]; stopped: boolean; busy: [number, string] | null; again: boolean }>(`
import threading, time
server.loadCircuit("models/buck.json")
server.setEndTime(1.0)
server.setTimeStep(5e-8)
result = {}
def run():
    try:
        connect().runSimulation()
        result["run"] = [0, "completed"]
    except xmlrpc.Fault as f:
        result["run"] = [f.faultCode, f.faultString]
t = threading.Thread(target=run)
t.start()
stopped = False
busy = None
for _ in range(200):
    time.sleep(0.05)
    try:
        connect().runSimulation()
    except xmlrpc.Fault as f:
        busy = [f.faultCode, f.faultString]
    if connect().stopSimulation():
        stopped = True
        break
t.join(60)
out({"run": result.get("run"), "stopped": stopped, "busy": busy, "again": connect().stopSimulation()})
`);
    expect(r.stopped).to.equal(true);
    expect(r.busy![0]).to.equal(10);
    expect(r.busy![1]).to.match(/^BUSY: /);
    expect(r.run[0]).to.equal(11);
    expect(r.run[1]).to.match(/^CANCELLED: /);
    expect(r.again).to.equal(false);
    const listed = await h.client.get<{ content: { simulationId: string; status: string }[] }>('/api/v1/simulations?status=cancelled');
    expect(listed.status).to.equal(200);
    expect(JSON.stringify(listed.body)).to.contain('cancelled');
  });

  it('accepts GeckoCIRCUITS short names where the component has no parameter of that name', async () => {
    const r = await h.python<unknown[]>(`
server.loadCircuit("models/buck.ipes")
server.setParameter("U.1", "uDC", 36)
server.setParameter("SIGNAL.1", "d", 0.25)
server.setParameter("SIGNAL.1", "f", 50000)
server.setParameter("L.1", "iL(0)", 0.5)
out([server.getParameter("U.1", "value"), server.getParameter("U.1", "uDC"), server.getParameter("SIGNAL.1", "duty"),
     server.getParameter("SIGNAL.1", "frequency"), server.getParameter("L.1", "i0"), server.getParameter("L.1", "IL(0)")])
`);
    expect(r).to.deep.equal([36, 36, 0.25, 50000, 0.5, 0.5]);
  });

  it('refuses a value out of the parameter\'s range when it is set, keeping the old value', async () => {
    const r = await h.python<unknown[]>(`
server.loadCircuit("models/buck-vin.json")
fault(lambda: server.setParameter("R.1", "R", -1))
fault(lambda: server.setParameter("SIGNAL.1", "duty", 1.5))
fault(lambda: server.setGlobalParameter("Vin", 12))
out([res, server.getParameter("R.1", "R"), server.getParameter("SIGNAL.1", "duty")])
`);
    const [faults, resistance, duty] = r as [[number, string][], number, number];
    expect(faults[0][0]).to.equal(9);
    expect(faults[0][1]).to.match(/^INVALID_ARGUMENT: setParameter R\.1\.R = -1: /);
    expect(faults[1][0]).to.equal(9);
    expect(faults[1][1]).to.contain('SIGNAL.1.duty = 1.5');
    expect(faults[2]).to.deep.equal([0, 'no fault']);
    expect(resistance).to.equal(5);
    expect(duty).to.equal(0.5);
  });

  it('refuses a JSON netlist with a parameter nothing reads, naming it', async () => {
    const typo = { ...BUCK_1MS, blocks: BUCK_1MS.blocks!.map((b) => (b.name === 'SIGNAL.1' ? { ...b, params: { ...b.params, dutty: 0.2 } } : b)) };
    writeFileSync(join(h.root, 'models', 'typo.json'), JSON.stringify(typo));
    const r = await h.python<{ fault: { code: number; string: string } }>('server.loadCircuit("models/typo.json")');
    expect(r.fault.code).to.equal(5);
    expect(r.fault.string).to.match(/^CIRCUIT_INVALID: loadCircuit: SIGNAL\.1\.dutty: unknown parameter 'dutty': SIGNAL\.1 \(SIGNAL\) reads .*\bduty\b/);
  });

  it('gives each client id its own session: parallel clients never read each other\'s values', async () => {
    const client = (id: string, resistance: number): Promise<number[]> => h.python<number[]>(`
server.loadCircuit("models/buck.json")
seen = []
for i in range(25):
    value = ${resistance} + i
    server.setParameter("R.1", "R", value)
    seen.append(server.getParameter("R.1", "R") - value)
out(seen)
`, `${h.rmiUrl}/${id}`);
    const [a, b, c] = await Promise.all([client('alice', 100), client('bob', 200), client('carol.3_x-y', 300)]);
    expect([...a, ...b, ...c].every((d) => d === 0), JSON.stringify({ a, b, c })).to.equal(true);
    // A second connection with the same id reaches the same session; the shared one is apart.
    const same = await h.python<unknown[]>(`
server.loadCircuit("models/buck.json")
server.setParameter("R.1", "R", 77)
out([connect("${h.rmiUrl}/dave").getParameter("R.1", "R"), connect("${h.rmiUrl}/erin").loadCircuit("models/buck.json")["path"] != "", connect("${h.rmiUrl}/erin").getParameter("R.1", "R")])
`, `${h.rmiUrl}/dave`);
    expect(same).to.deep.equal([77, true, 5]);
    const bad = await fetch(`${h.rmiUrl}/no%20spaces`, { method: 'POST', body: '<methodCall><methodName>system.listMethods</methodName></methodCall>' });
    expect(bad.status).to.equal(404);
    expect(await bad.text()).to.contain('/RPC2/&lt;client-id&gt;');
  });

  it('describes every method with its return value and faults in system.methodHelp', async () => {
    const r = await h.python<{ methods: string[]; help: Record<string, string> }>(`
methods = server.system.listMethods()
out({"methods": methods, "help": {m: server.system.methodHelp(m) for m in methods}})
`);
    for (const name of ['loadCircuit', 'saveCircuit', 'runSimulation', 'stopSimulation', 'resetSimulation', 'setParameter', 'getParameter', 'setGlobalParameter', 'getMeasurement', 'getWaveform', 'exportData']) {
      expect(r.methods).to.include(name);
      expect(r.help[name]).to.match(new RegExp(`^${name}\\(.*\\) → `));
      expect(r.help[name]).to.match(/Faults: /);
    }
  });
});
