// The simulations list (GET /api/v1/simulations with status and batch filters, 50 a page) with a
// button per row that shows that simulation in the run and results panels.
import { errorLines, getJson, type SimulationSummary } from './api.js';
import { byId, h } from './dom.js';

const PAGE = 50;

export class SimulationsPanel {
  private offset = 0;

  constructor(private readonly onShow: (simulationId: string) => void) {
    byId('sim-filter').addEventListener('submit', (e) => { e.preventDefault(); this.offset = 0; void this.refresh(); });
    byId('sim-prev').addEventListener('click', () => { this.offset = Math.max(0, this.offset - PAGE); void this.refresh(); });
    byId('sim-next').addEventListener('click', () => { this.offset += PAGE; void this.refresh(); });
  }

  async refresh(): Promise<void> {
    const query = new URLSearchParams({ limit: String(PAGE), offset: String(this.offset) });
    const status = byId<HTMLSelectElement>('sim-status').value;
    const batch = byId<HTMLInputElement>('sim-batch').value.trim();
    if (status) query.set('status', status);
    if (batch) query.set('batchId', batch);
    try {
      const list = await getJson<{ simulations: SimulationSummary[]; total: number }>(`/api/v1/simulations?${query}`);
      if (list.simulations.length === 0 && this.offset > 0) {
        this.offset = Math.max(0, this.offset - PAGE);
        return;
      }
      byId('sim-count').textContent = list.total === 0 ? 'No simulations.' : `${this.offset + 1}–${this.offset + list.simulations.length} of ${list.total}`;
      byId('sim-table').querySelector('tbody')!.replaceChildren(...list.simulations.map((s) => {
        const show = h('button', { type: 'button', 'aria-label': `Show simulation ${s.simulationId}` }, 'Show');
        show.addEventListener('click', () => this.onShow(s.simulationId));
        return h('tr', { 'data-status': s.status },
          h('td', { title: s.simulationId }, s.simulationId.slice(0, 8)), h('td', {}, s.circuitName), h('td', {}, s.status),
          h('td', {}, `${s.progress.toFixed(0)} %`), h('td', {}, new Date(s.submittedAt).toLocaleString()),
          h('td', { title: s.batchId ?? '' }, s.batchId ? s.batchId.slice(0, 8) : ''), h('td', {}, show));
      }));
    } catch (error) {
      byId('sim-count').textContent = errorLines(error).join(' · ');
    }
  }
}
