// The simulation state machine of docs/spec/decisions.md §1.2 through HTTP: pause mid-run and resume
// continues the same run to the same result as an uninterrupted one; cancel mid-run and while
// queued; and the 409 INVALID_STATE answers naming the current state. One worker thread, no
// result cache (the comparison run must really run).
import { expect } from 'chai';
import { buck, rcStep } from '../../fixtures/circuits.js';
import { circuitFileOf, startHarness, type Harness, type SimulationStatusBody } from './harness.js';

interface ErrorBody {
  error: string;
  message: string;
}
interface StateChange {
  simulationId: string;
  status: string;
}
interface ProgressBody {
  currentStep: number;
  totalSteps: number;
}

// 5e6 steps: long enough to act on while it runs.
const longRun = { circuitFile: circuitFileOf(buck({ tEnd: 0.5, dt: 1e-7 })), measurementWindow: { start: 0.4, end: 0.5 } };

describe('simulation service: states, pause, resume, cancel', function () {
  this.timeout(120_000);
  let h: Harness;
  before(async () => {
    h = await startHarness({ maxConcurrent: 1, cacheEnabled: false });
  });
  after(async () => h.close());

  async function runningWithSteps(id: string): Promise<ProgressBody> {
    await h.client.waitForState(id, 'running');
    for (;;) {
      const p = await h.client.get<ProgressBody>(`/api/v1/simulations/${id}/progress`);
      if (p.body.currentStep > 0) return p.body;
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  it('pauses mid-run, keeps the step while paused, resumes the same run and matches an uninterrupted run', async () => {
    const a = (await h.client.post<StateChange>('/api/v1/simulations', longRun)).body.simulationId;
    const b = (await h.client.post<StateChange>('/api/v1/simulations', { circuitFile: circuitFileOf(rcStep('trapezoidal', 1e-5)) })).body.simulationId;
    await runningWithSteps(a);

    const queuedPause = await h.client.post<ErrorBody>(`/api/v1/simulations/${b}/pause`);
    expect(queuedPause.status).to.equal(409);
    expect(queuedPause.body).to.include({ error: 'INVALID_STATE' });
    expect(queuedPause.body.message).to.contain('queued');
    const runningResume = await h.client.post<ErrorBody>(`/api/v1/simulations/${a}/resume`);
    expect(runningResume.status).to.equal(409);
    expect(runningResume.body.message).to.contain('running');
    const runningExport = await h.client.get<ErrorBody>(`/api/v1/simulations/${a}/export`);
    expect(runningExport.status).to.equal(409);
    expect(runningExport.body.message).to.contain('running');

    const paused = await h.client.post<StateChange>(`/api/v1/simulations/${a}/pause`);
    expect(paused.status).to.equal(200);
    expect(paused.body).to.deep.equal({ simulationId: a, status: 'paused' });
    // The engine stops within 64 steps; once stopped the step count stays put.
    let before = (await h.client.get<ProgressBody>(`/api/v1/simulations/${a}/progress`)).body.currentStep;
    for (;;) {
      await new Promise((r) => setTimeout(r, 150));
      const now = (await h.client.get<ProgressBody>(`/api/v1/simulations/${a}/progress`)).body.currentStep;
      if (now === before) break;
      before = now;
    }
    expect(before).to.be.greaterThan(0).and.lessThan(5e6);
    expect((await h.client.get<SimulationStatusBody>(`/api/v1/simulations/${a}`)).body.status).to.equal('paused');
    const pauseAgain = await h.client.post<ErrorBody>(`/api/v1/simulations/${a}/pause`);
    expect(pauseAgain.status).to.equal(409);
    expect(pauseAgain.body.message).to.contain('paused');

    const resumed = await h.client.post<StateChange>(`/api/v1/simulations/${a}/resume`);
    expect(resumed.body).to.deep.equal({ simulationId: a, status: 'running' });
    const after = (await h.client.get<ProgressBody>(`/api/v1/simulations/${a}/progress`)).body.currentStep;
    expect(after).to.be.at.least(before); // continued, not restarted from zero
    const done = await h.client.waitForState(a, 'completed', 90_000);
    expect(done.progress.currentStep).to.equal(5e6);

    const completedPause = await h.client.post<ErrorBody>(`/api/v1/simulations/${a}/pause`);
    expect(completedPause.status).to.equal(409);
    expect(completedPause.body.message).to.contain('completed');
    const completedResume = await h.client.post<ErrorBody>(`/api/v1/simulations/${a}/resume`);
    expect(completedResume.status).to.equal(409);
    const completedCancel = await h.client.delete<ErrorBody>(`/api/v1/simulations/${a}`);
    expect(completedCancel.status).to.equal(409);

    const reference = (await h.client.post<StateChange>('/api/v1/simulations', longRun)).body.simulationId;
    const uninterrupted = await h.client.waitForState(reference, 'completed', 90_000);
    expect(uninterrupted.cacheHit).to.equal(false);
    expect(done.results!.measurements).to.deep.equal(uninterrupted.results!.measurements);
    // Buck averages: vout ≈ D·Vin less the diode and switch drops.
    expect(done.results!.measurements['SCOPE.1.ch1_avg']).to.be.within(22, 24.5);
    await h.client.waitForState(b, 'completed');
  });

  it('cancels a running simulation and a queued one; a cancelled run stays cancelled', async () => {
    const a = (await h.client.post<StateChange>('/api/v1/simulations', longRun)).body.simulationId;
    const b = (await h.client.post<StateChange>('/api/v1/simulations', { ...longRun, parameters: { 'R.1.R': 6 } })).body.simulationId;
    await runningWithSteps(a);
    const seen = (await h.client.get<SimulationStatusBody>(`/api/v1/simulations/${a}`)).body.progress.mainSimProgress;
    const queued = await h.client.delete<StateChange>(`/api/v1/simulations/${b}`);
    expect(queued.status).to.equal(200);
    expect(queued.body).to.deep.equal({ simulationId: b, status: 'cancelled' });
    const running = await h.client.delete<StateChange>(`/api/v1/simulations/${a}`);
    expect(running.body).to.deep.equal({ simulationId: a, status: 'cancelled' });
    // The worker is free again: a short run completes after the cancelled ones.
    const next = (await h.client.post<StateChange>('/api/v1/simulations', { circuitFile: circuitFileOf(rcStep('backward-euler', 1e-5)) })).body.simulationId;
    await h.client.waitForState(next, 'completed');
    // Progress stays where the run stopped: not below what was seen before the cancel, not 100.
    const stopped = (await h.client.get<SimulationStatusBody>(`/api/v1/simulations/${a}`)).body.progress.mainSimProgress;
    expect(stopped).to.be.at.least(seen).and.below(100);
    const listed = (await h.client.get<{ simulations: { simulationId: string; progress: number }[] }>('/api/v1/simulations?limit=100')).body.simulations;
    expect(listed.find((x) => x.simulationId === a)?.progress).to.equal(stopped);
    for (const id of [a, b]) {
      const s = await h.client.get<SimulationStatusBody>(`/api/v1/simulations/${id}`);
      expect(s.body.status).to.equal('cancelled');
      expect(s.body.results).to.equal(null);
      expect(s.body.progress.estimatedRemainingMs).to.equal(0);
      for (const [method, path] of [['DELETE', ''], ['POST', '/pause'], ['POST', '/resume'], ['GET', '/export']] as const) {
        const r = await h.client.request<ErrorBody>(method, `/api/v1/simulations/${id}${path}`);
        expect(r.status, `${method} ${path}`).to.equal(409);
        expect(r.body.message).to.contain('cancelled');
      }
    }
  });
});
