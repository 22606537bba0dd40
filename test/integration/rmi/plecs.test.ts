// The PLECS dialect over XML-RPC with Python's xmlrpc.client, as pyplecs and the MCP servers use
// it: the liveness probes, load / get / set / close, plecs.simulate with ModelVars and SolverOpts,
// the pyplecs batch call plecs.simulate(name, [opts, opts, opts]) running on the worker pool
// with results in input order and a failed item as a string in its slot, and the steady-state
// analysis (plecs.analyze with its AnalysisOpts, runSteadyState).
import { expect } from 'chai';
import { startRmiHarness, type RmiHarness } from './harness.js';

interface Plain {
  Time: number[];
  Values: number[][];
}

const last = (values: number[]): number => values[values.length - 1];
const mean = (row: number[]): number => row.reduce((sum, v) => sum + v, 0) / row.length;

describe('XML-RPC: the PLECS dialect', function () {
  this.timeout(120_000);
  let h: RmiHarness;
  let model: string;
  before(async () => {
    h = await startRmiHarness();
    model = `${h.root}/models/buck.json`;
  });
  after(async () => h?.close());

  it('answers the probes, loads a model by path and names it by its file stem', async () => {
    const r = await h.python<{ methods: string[]; stats: { version: string; build: string; models: { id: string }[] }; name: string; rootUrl: string[] }>(`
methods = server.system.listMethods()
name = server.plecs.load(${JSON.stringify(model)})
stats = server.plecs.statistics()
out({"methods": methods, "stats": stats, "name": name, "rootUrl": connect(URL.replace("/RPC2", "/")).system.listMethods()})
`);
    for (const m of ['system.listMethods', 'system.methodHelp', 'plecs.load', 'plecs.close', 'plecs.get', 'plecs.set', 'plecs.simulate', 'plecs.statistics']) expect(r.methods).to.include(m);
    expect(r.rootUrl).to.deep.equal(r.methods);
    expect(r.name).to.equal('buck');
    expect(r.stats.models.map((m) => m.id)).to.deep.equal(['buck']);
    expect(r.stats.version).to.match(/^\d+\.\d+\.\d+/);
  });

  it('simulate returns {Time, Values} with one row per scope channel; ModelVars and SolverOpts apply', async () => {
    const r = await h.python<{ base: Plain; heavy: Plain; short: Plain; nil: Plain; nilVars: Plain }>(`
server.plecs.load(${JSON.stringify(model)})
base = server.plecs.simulate("buck")
heavy = server.plecs.simulate("buck", {"ModelVars": {"R.1.R": 1.0}})
short = server.plecs.simulate("buck", {"SolverOpts": {"TimeSpan": 5e-4, "FixedStep": 2e-6, "Timeout": 30}})
nil = server.plecs.simulate("buck", None)  # allow_none=True sends <nil/>: the model as it is
nil_vars = server.plecs.simulate("buck", {"ModelVars": {"R.1.R": None}, "SolverOpts": None})
out({"base": base, "heavy": heavy, "short": short, "nil": nil, "nilVars": nil_vars})
`);
    expect(r.base.Values).to.have.length(2); // SCOPE.1.ch1 = vout, SCOPE.1.ch2 = iL
    for (const row of r.base.Values) expect(row).to.have.length(r.base.Time.length);
    expect(last(r.base.Time)).to.be.closeTo(1e-3, 1e-6);
    expect(last(r.short.Time)).to.be.closeTo(5e-4, 1e-6);
    expect(r.short.Time[1] - r.short.Time[0]).to.be.closeTo(2e-6, 1e-9);
    // A 1 Ω load (ModelVars R.1.R) draws more inductor current on average than the model's 5 Ω.
    expect(mean(r.heavy.Values[1])).to.be.greaterThan(1.2 * mean(r.base.Values[1]));
    expect(r.nil.Values).to.deep.equal(r.base.Values);
    expect(r.nilVars.Values).to.deep.equal(r.base.Values);
  });

  it('plecs.set / plecs.get reach component parameters, globals and settings; close forgets the model', async () => {
    const r = await h.python<unknown[]>(`
server.plecs.load(${JSON.stringify(model)})
before = server.plecs.get("buck/R.1", "R")
server.plecs.set("buck/R.1", "R", "2.5")
after = server.plecs.get("buck/R.1", "R")
server.plecs.set("buck", "TimeSpan", 4e-4)
all_params = server.plecs.get("buck/R.1")
by_model = server.plecs.get("buck", "R.1.R")
res = server.plecs.simulate("buck")
server.plecs.close("buck")
try:
    server.plecs.simulate("buck")
    closed = "no fault"
except xmlrpc.Fault as f:
    closed = f.faultString
out([before, after, all_params, res["Time"][-1], closed, by_model])
`);
    expect(r[0]).to.equal('5');
    expect(r[1]).to.equal('2.5');
    expect(r[2]).to.deep.equal({ R: '2.5' });
    expect(r[3] as number).to.be.closeTo(4e-4, 1e-6);
    expect(r[4]).to.match(/no model "buck" is loaded/);
    expect(r[5]).to.equal('2.5');
  });

  it('runs a pyplecs batch plecs.simulate(name, [opts, opts, opts]) in parallel, results in input order', async () => {
    const r = await h.python<(Plain | string)[]>(`
server.plecs.load(${JSON.stringify(model)})
opts = [{"ModelVars": {"R.1.R": r}} for r in (2.0, 5.0, 20.0)]
opts.insert(1, {"ModelVars": {"NoSuchVar": 1}})
out(server.plecs.simulate("buck", opts))
`);
    expect(r).to.have.length(4);
    expect(r[1]).to.be.a('string').and.match(/NoSuchVar/);
    const [a, b, c] = [r[0], r[2], r[3]] as Plain[];
    // The smaller the load resistance, the more inductor current on average: the order of the
    // answers is the order of the option structs.
    expect(mean(a.Values[1])).to.be.greaterThan(mean(b.Values[1]));
    expect(mean(b.Values[1])).to.be.greaterThan(mean(c.Values[1]));
    // The same run as a single call gives the same numbers: the batch kept the order.
    const single = await h.python<Plain>(`
server.plecs.load(${JSON.stringify(model)})
out(server.plecs.simulate("buck", {"ModelVars": {"R.1.R": 5.0}}))
`);
    expect(single.Values[1]).to.deep.equal(b.Values[1]);
    const listed = await h.client.get<unknown>('/api/v1/simulations?size=100');
    expect(JSON.stringify(listed.body)).to.contain('buck');
  });

  it('ends a run past its SolverOpts.Timeout: a fault for one run, a string in a list', async () => {
    const r = await h.python<unknown[]>(`
server.plecs.load(${JSON.stringify(model)})
slow = {"SolverOpts": {"TimeSpan": 2.0, "FixedStep": 5e-8, "Timeout": 0.3}}
try:
    server.plecs.simulate("buck", slow)
    single = "no fault"
except xmlrpc.Fault as f:
    single = [f.faultCode, f.faultString]
listed = server.plecs.simulate("buck", [slow, {"SolverOpts": {"TimeSpan": 1e-4}}])
out([single, listed[0], len(listed[1]["Time"])])
`);
    expect((r[0] as [number, string])[0]).to.equal(12);
    expect((r[0] as [number, string])[1], String(r[0])).to.match(/TIMEOUT: the run exceeded its time-out of 0\.3 s/);
    expect(r[1]).to.be.a('string').and.match(/TIMEOUT/);
    expect(r[2]).to.be.greaterThan(10);
  });

  it('answers system.multicall as Python\'s MultiCall sends it, a fault in its slot', async () => {
    const r = await h.python<unknown[]>(`
calls = xmlrpc.MultiCall(server)
calls.plecs.load(${JSON.stringify(model)})
calls.plecs.get("buck/R.1", "R")
calls.plecs.nothing()
results = calls()
answers = []
for i in range(3):
    try:
        answers.append(results[i])
    except xmlrpc.Fault as f:
        answers.append([f.faultCode, f.faultString])
out(answers)
`);
    expect(r[0]).to.equal('buck');
    expect(r[1]).to.equal('5');
    expect((r[2] as [number, string])[0]).to.equal(-32601);
  });

  it('faults for unknown methods, bad options and a model outside the root', async () => {
    const r = await h.python<[number, string][]>(`
server.plecs.load(${JSON.stringify(model)})
fault(lambda: server.plecs.scope("buck/Scope", "ClearTraces"))
fault(lambda: server.plecs.simulate("buck", {"StopTime": 1e-3}))
fault(lambda: server.plecs.simulate("buck", {"OutputFormat": "MatFile"}))
fault(lambda: server.plecs.simulate("buck", {"ModelVars": {"R.1.R": "1+1"}}))
fault(lambda: server.plecs.load("/etc/hostname"))
fault(lambda: server.plecs.simulate("buck", {"SolverOpts": {"TimeSpan": 10.0, "FixedStep": 1e-9}}))
out(res)
`);
    expect(r.map(([code]) => code)).to.deep.equal([-32601, -32602, -32602, -32602, 3, -32602]);
    expect(r[1][1]).to.match(/unknown option StopTime.*SolverOpts/);
    expect(r[2][1]).to.match(/MatFile|Plain/);
    expect(r[3][1]).to.match(/expressions are not evaluated/);
    expect(r[5][1]).to.match(/exceed the limit/);
  });
  it('analyze "Steady-State Analysis" answers one settled period with its report; runSteadyState does it for the control session', async () => {
    const r = await h.python<{ steady: Plain & { SteadyState: { converged: boolean; period: number; iterations: number } }; list: (Plain | string)[]; fault: string; control: { avg: number; n: number } }>(`
server.plecs.load(${JSON.stringify(model)})
steady = server.plecs.analyze("buck", "Steady-State Analysis", {"AnalysisOpts": {"Tolerance": 1e-10, "MaxIter": 10}})
lst = server.plecs.analyze("buck", "Steady-State Analysis", [{"ModelVars": {"R.1.R": 1.0}}, {"AnalysisOpts": {"TimeSpan": 33.5e-6}}])
try:
    server.plecs.analyze("buck", "AC Sweep")
    fault = ""
except Exception as e:
    fault = str(e)
server.loadCircuit("models/buck.json")
server.runSteadyState({"tolerance": 1e-10})
avg = server.getMeasurement("SCOPE.1", "ch1_avg")
n = len(server.getWaveform("SCOPE.1", "ch1")["time"])
out({"steady": steady, "list": lst, "fault": fault, "control": {"avg": avg, "n": n}})
`);
    expect(r.steady.SteadyState.converged).to.equal(true);
    expect(r.steady.SteadyState.period).to.be.closeTo(50e-6, 1e-15);
    expect(r.steady.Time).to.have.length(51); // 50 steps of 1 µs
    expect(r.steady.Values).to.have.length(2);
    expect(last(r.steady.Time)).to.be.closeTo(50e-6, 1e-12);
    expect((r.list[0] as Plain).Time).to.have.length(51);
    expect(r.list[1]).to.be.a('string').and.match(/not a whole number of steps|STEADY_STATE_UNSUPPORTED/);
    expect(r.fault).to.match(/AC Sweep.*not available.*Steady-State Analysis/);
    expect(r.control.n).to.equal(51);
    expect(r.control.avg).to.be.closeTo(mean(r.steady.Values[0]), 1e-3);
  });

  it('analyze honours InitCycles, JacobianPerturbation, JacobianCalculation and StartTime 0, and refuses bad values naming the option', async () => {
    type Steady = Plain & { SteadyState: { converged: boolean; iterations: number; periods: number; error: number } };
    const r = await h.python<{ fast: Steady; full: Steady; coarse: Steady; settled: Steady; faults: string[] }>(`
server.plecs.load(${JSON.stringify(model)})
def analyze(opts):
    return server.plecs.analyze("buck", "Steady-State Analysis", {"AnalysisOpts": opts})
fast = analyze({"Tolerance": 1e-10, "JacobianCalculation": "fast", "StartTime": 0})
full = analyze({"Tolerance": 1e-10, "JacobianCalculation": "Full"})
coarse = analyze({"Tolerance": 1e-10, "JacobianPerturbation": 1e-3})
settled = analyze({"Tolerance": 1e-6, "InitCycles": 3000})
faults = []
for bad in [{"InitCycles": -1}, {"InitCycles": 1.5}, {"JacobianPerturbation": 0}, {"JacobianPerturbation": 0.5},
            {"JacobianCalculation": "medium"}, {"StartTime": 1e-3}, {"ShowCycles": 2}, {"Jacobian": "fast"}]:
    try:
        analyze(bad)
        faults.append("")
    except xmlrpc.Fault as e:
        faults.append("%d %s" % (e.faultCode, e.faultString))
out({"fast": fast, "full": full, "coarse": coarse, "settled": settled, "faults": faults})
`);
    for (const run of [r.fast, r.full, r.coarse, r.settled]) expect(run.SteadyState.converged).to.equal(true);
    // The same settled period however the Jacobian's products are found.
    const scale = Math.max(...r.full.Values[0].map(Math.abs));
    for (const run of [r.fast, r.coarse, r.settled]) {
      for (const [i, v] of run.Values[0].entries()) expect(Math.abs(v - r.full.Values[0][i]) / scale).to.be.below(1e-5);
    }
    expect(r.fast.SteadyState.iterations).to.be.greaterThan(0);
    // 3000 transient periods settle the buck: the period after them repeats, no Newton step is needed.
    expect(r.settled.SteadyState.iterations).to.equal(0);
    expect(r.settled.SteadyState.periods).to.equal(3001);
    expect(r.faults.map((f) => f.split(' ')[0])).to.deep.equal(Array(8).fill('-32602'));
    const names = ['InitCycles', 'InitCycles', 'JacobianPerturbation', 'JacobianPerturbation', 'JacobianCalculation', 'StartTime', 'ShowCycles', 'Jacobian'];
    for (const [i, name] of names.entries()) expect(r.faults[i]).to.contain(name);
  });
});
