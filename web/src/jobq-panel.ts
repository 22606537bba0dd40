// The job queue's tasks, when a job-queue service (`pesim jobq`) runs beside this one: its URL is
// entered on the page (kept in localStorage; `?jobq=URL` in the page address fills it in). Shows
// its health and statistics (GET /health, /stats) and a table of tasks: the ones named in its log
// (GET /logs, when log access is on) and the ones followed by id (GET /simulations/{task_id}),
// refreshed every two seconds. The job queue answers cross-origin requests (its cors_origins).
import { byId, fmt, h } from './dom.js';

const URL_STORAGE = 'pesim.jobqUrl';
const FOLLOWED_STORAGE = 'pesim.jobqTasks';

interface Task {
  task_id: string; status: string; priority: string; model_file: string; submitted_at: string;
  duration_seconds: number | null; retry_count: number; error_message: string | null;
}
interface Stats {
  queue: Record<string, number>;
  performance: Record<string, number>;
  system: Record<string, number>;
}

async function fetchJson<T>(url: string): Promise<T> {
  const response = await fetch(url, { headers: { Accept: 'application/json' } });
  if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
  return (await response.json()) as T;
}

export class JobQueuePanel {
  private base = '';
  private timer: number | undefined;
  private readonly followed = new Set<string>(JSON.parse(localStorage.getItem(FOLLOWED_STORAGE) ?? '[]') as string[]);

  constructor() {
    const input = byId<HTMLInputElement>('jobq-url');
    input.value = new URLSearchParams(location.search).get('jobq') ?? localStorage.getItem(URL_STORAGE) ?? '';
    byId('jobq-form').addEventListener('submit', (e) => { e.preventDefault(); this.connect(input.value); });
    byId('jobq-follow').addEventListener('click', () => {
      const id = byId<HTMLInputElement>('jobq-task').value.trim();
      if (!id) return;
      this.followed.add(id);
      localStorage.setItem(FOLLOWED_STORAGE, JSON.stringify([...this.followed]));
      void this.refresh();
    });
    if (input.value) this.connect(input.value);
  }

  connect(url: string): void {
    this.base = url.trim().replace(/\/+$/, '');
    window.clearInterval(this.timer);
    if (!this.base) {
      localStorage.removeItem(URL_STORAGE);
      byId('jobq-status').textContent = 'Not connected.';
      return;
    }
    localStorage.setItem(URL_STORAGE, this.base);
    void this.refresh();
    this.timer = window.setInterval(() => void this.refresh(), 2000);
  }

  private async refresh(): Promise<void> {
    if (!this.base) return;
    const status = byId('jobq-status');
    try {
      const [health, stats] = await Promise.all([fetchJson<{ status: string; version: string }>(`${this.base}/health`), fetchJson<Stats>(`${this.base}/stats`)]);
      status.textContent = `${this.base}: ${health.status}, interface ${health.version}`;
      const rows = Object.entries(stats).flatMap(([group, values]) => Object.entries(values).map(([k, v]) => h('tr', {}, h('th', { scope: 'row' }, `${group} ${k.replace(/_/g, ' ')}`), h('td', {}, fmt(Number(v))))));
      byId('jobq-stats').querySelector('tbody')!.replaceChildren(...rows);
    } catch (error) {
      status.textContent = `${this.base} does not answer: ${(error as Error).message}`;
      return;
    }
    const ids = new Set(this.followed);
    try {
      const logs = await fetchJson<{ logs: Array<{ task_id?: string }> }>(`${this.base}/logs?limit=500`);
      for (const entry of logs.logs) if (entry.task_id) ids.add(entry.task_id);
    } catch {
      // Log access is off on that service: only followed tasks are shown.
    }
    const tasks = await Promise.all([...ids].map((id) => fetchJson<Task>(`${this.base}/simulations/${encodeURIComponent(id)}`).catch(() => undefined)));
    const known = tasks.filter((t): t is Task => t !== undefined).sort((a, b) => b.submitted_at.localeCompare(a.submitted_at));
    byId('jobq-tasks').querySelector('tbody')!.replaceChildren(...known.map((t) => h('tr', { 'data-status': t.status, title: t.error_message ?? '' },
      h('td', { title: t.task_id }, t.task_id.slice(0, 8)), h('td', {}, t.model_file), h('td', {}, t.status), h('td', {}, t.priority),
      h('td', {}, new Date(t.submitted_at).toLocaleString()), h('td', {}, fmt(t.duration_seconds)), h('td', {}, t.retry_count))));
  }
}
