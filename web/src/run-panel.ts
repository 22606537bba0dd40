// Running a circuit and watching it: POST /api/v1/simulations with the open circuit's id and what
// the form shows that differs from it (edited parameter values, settings), with `steady: true` for
// its periodic steady state (whose report is shown once it completes), the
// progress bar fed by the SSE stream (progress-stream.ts), pause, resume and cancel, the state,
// elapsed and remaining time. Any simulation (one from the list too) can be watched.
import { errorLines, getJson, sendJson, type SimulationStatus, type SteadyReport } from './api.js';
import { byId, duration } from './dom.js';
import { followProgress, type ProgressMessage } from './progress-stream.js';

export class RunPanel {
  private circuitId: string | undefined;
  private simulationId: string | undefined;
  private watching: AbortController | undefined;
  private startedAt: number | undefined;
  private readonly buttons = {
    start: byId<HTMLButtonElement>('run-start'),
    steady: byId<HTMLButtonElement>('run-steady'),
    pause: byId<HTMLButtonElement>('run-pause'),
    resume: byId<HTMLButtonElement>('run-resume'),
    cancel: byId<HTMLButtonElement>('run-cancel'),
  };

  constructor(
    private readonly onFinished: (simulationId: string, status: string) => void,
    private readonly runOptions: () => Record<string, unknown>,
  ) {
    this.buttons.start.addEventListener('click', () => void this.start(false));
    this.buttons.steady.addEventListener('click', () => void this.start(true));
    this.buttons.pause.addEventListener('click', () => void this.command('POST', 'pause'));
    this.buttons.resume.addEventListener('click', () => void this.command('POST', 'resume'));
    this.buttons.cancel.addEventListener('click', () => void this.command('DELETE', ''));
  }

  setCircuit(circuitId: string): void {
    this.circuitId = circuitId;
    this.buttons.start.disabled = false;
    this.buttons.steady.disabled = false;
  }

  private showState(status: string): void {
    const upper = status.toUpperCase();
    byId('run-state').textContent = upper;
    byId('run').dataset.state = upper;
    this.buttons.pause.disabled = upper !== 'RUNNING';
    this.buttons.resume.disabled = upper !== 'PAUSED';
    this.buttons.cancel.disabled = !['QUEUED', 'RUNNING', 'PAUSED'].includes(upper);
  }

  private showProgress(percent: number): void {
    byId<HTMLProgressElement>('run-progress').value = percent;
    byId('run-percent').textContent = `${percent.toFixed(1)} %`;
    const elapsed = this.startedAt === undefined ? undefined : Date.now() - this.startedAt;
    byId('run-elapsed').textContent = duration(elapsed);
    const remaining = elapsed !== undefined && percent > 0 && percent < 100 ? (elapsed * (100 - percent)) / percent : percent >= 100 ? 0 : undefined;
    byId('run-remaining').textContent = duration(remaining);
  }

  private async start(steady: boolean): Promise<void> {
    if (!this.circuitId) return;
    byId('run-errors').replaceChildren();
    try {
      const body = { ...this.runOptions(), circuitFile: this.circuitId, ...(steady ? { steady: true } : {}) };
      const submitted = await sendJson<{ simulationId: string }>('POST', '/api/v1/simulations', body);
      await this.follow(submitted.simulationId);
    } catch (error) {
      byId('run-errors').textContent = errorLines(error).join(' · ');
    }
  }

  /** Shows the simulation's state and follows its progress until it ends; failures are shown. */
  async watch(simulationId: string): Promise<void> {
    try {
      await this.follow(simulationId);
    } catch (error) {
      byId('run-errors').textContent = errorLines(error).join(' · ');
    }
  }

  private async follow(simulationId: string): Promise<void> {
    this.watching?.abort();
    const watching = new AbortController();
    this.watching = watching;
    this.simulationId = simulationId;
    byId('run-id').textContent = `Simulation ${simulationId}`;
    byId('run-steady-report').textContent = '';
    const status = await getJson<SimulationStatus>(`/api/v1/simulations/${simulationId}`);
    this.startedAt = status.startedAt ? Date.parse(status.startedAt) : undefined;
    this.showState(status.status);
    this.showProgress(status.progress.mainSimProgress);
    if (!['completed', 'failed', 'cancelled'].includes(status.status)) {
      await followProgress(simulationId, (m: ProgressMessage) => {
        if (m.status === 'RUNNING' && this.startedAt === undefined) this.startedAt = Date.now();
        this.showState(m.status);
        this.showProgress(m.progress);
        if (m.errorMessage) byId('run-errors').textContent = m.errorMessage;
      }, watching.signal);
    }
    if (watching.signal.aborted) return;
    const final = await getJson<SimulationStatus>(`/api/v1/simulations/${simulationId}`);
    this.showState(final.status);
    if (final.durationMs !== null) byId('run-elapsed').textContent = duration(final.durationMs);
    if (final.status === 'completed') this.showProgress(100);
    else byId('run-remaining').textContent = '–';
    if (final.errorMessage) byId('run-errors').textContent = final.errorMessage;
    if (final.results?.steady) byId('run-steady-report').textContent = steadyText(final.results.steady);
    this.onFinished(simulationId, final.status);
  }

  private async command(method: 'POST' | 'DELETE', action: string): Promise<void> {
    if (!this.simulationId) return;
    try {
      const path = `/api/v1/simulations/${this.simulationId}${action ? `/${action}` : ''}`;
      const changed = await sendJson<{ status: string }>(method, path);
      this.showState(changed.status);
    } catch (error) {
      byId('run-errors').textContent = errorLines(error).join(' · ');
    }
  }
}

/** One line on how the settled period was found. */
function steadyText(r: SteadyReport): string {
  const how = r.method === 'shooting' ? `${r.iterations} Newton iterations` : 'transient periods (Newton did not converge)';
  return `Steady state ${r.converged ? 'found' : 'NOT reached'}: period ${(r.period * 1e3).toPrecision(4)} ms, ${how}, ${r.periods} periods simulated, periodicity error ${r.error.toExponential(1)}${r.message ? ` (${r.message})` : ''}`;
}
