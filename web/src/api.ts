// Calls of the simulation service's public HTTP API from the page: JSON requests with the API key
// (kept in sessionStorage, sent as X-API-Key), the service's error body turned into readable text
// (with the reader's line numbers), downloads, and the types of the bodies the dashboard reads.
const KEY_STORAGE = 'pesim.apiKey';

export function apiKey(): string {
  return sessionStorage.getItem(KEY_STORAGE) ?? '';
}

export function setApiKey(key: string): void {
  if (key) sessionStorage.setItem(KEY_STORAGE, key);
  else sessionStorage.removeItem(KEY_STORAGE);
}

export function authHeaders(): Record<string, string> {
  const key = apiKey();
  return key ? { 'X-API-Key': key } : {};
}

export interface ErrorDetail { field?: string; message: string; line?: number; component?: string }
export interface ErrorBody { error: string; message: string; details?: ErrorDetail[] }

export class ApiError extends Error {
  constructor(readonly status: number, readonly body: ErrorBody | undefined, message: string) {
    super(message);
  }

  /** One line per detail ("line 12: unknown element type Q", "R.9.R: no such component"), else the message. */
  lines(): string[] {
    const details = this.body?.details ?? [];
    const where = (d: ErrorDetail): string => (d.line !== undefined ? `line ${d.line}` : d.component ?? d.field ?? '');
    // The details repeat the message's content with their place (line, component, field).
    return details.length ? details.map((d) => `${where(d)}${where(d) ? ': ' : ''}${d.message}`) : [this.message];
  }
}

export function errorLines(error: unknown): string[] {
  if (error instanceof ApiError) return error.lines();
  return [error instanceof Error ? error.message : String(error)];
}

async function failure(response: Response): Promise<ApiError> {
  let body: ErrorBody | undefined;
  try {
    body = (await response.json()) as ErrorBody;
  } catch {
    body = undefined;
  }
  const message = body?.message ?? `${response.status} ${response.statusText}`;
  return new ApiError(response.status, body, response.status === 401 ? `${message} (enter the API key at the top)` : message);
}

export async function request(path: string, init: RequestInit = {}): Promise<Response> {
  const response = await fetch(path, { ...init, headers: { ...authHeaders(), ...(init.headers as Record<string, string> | undefined) } });
  if (!response.ok) throw await failure(response);
  return response;
}

export async function getJson<T>(path: string): Promise<T> {
  return (await (await request(path)).json()) as T;
}

export async function sendJson<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await request(path, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (response.status === 204 ? undefined : await response.json()) as T;
}

/** Fetches `path` (with the key) and saves it under `fileName`. */
export async function download(path: string, fileName: string): Promise<void> {
  const blob = await (await request(path)).blob();
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export type SolverType = 'backward-euler' | 'trapezoidal' | 'gear-shichman';
export interface Circuit {
  circuitId: string; name: string; format: string; componentCount: number; nodeCount: number;
  parameters: { simulationDuration: number; timeStep: number; solverType: SolverType };
  globalParameters: Record<string, number>; warnings: string[]; createdAt: string;
}
export interface CircuitComponent { name: string; type: string; kind: 'element' | 'block'; nodes: string[]; parameters: Record<string, number | string | number[] | string[]> }
export type Domain = 'power' | 'control' | 'thermal' | 'magnetic';
export interface SchematicComponent {
  name: string; type: string; kind: 'element' | 'block' | 'thermal'; domain: Domain; connections: string[];
  inputs?: string[]; outputs?: string[]; position: { x: number; y: number; orientation: number } | null;
}
export interface Schematic { circuitId: string; hasGeometry: boolean; components: SchematicComponent[]; wires: Array<{ domain: Domain; label: string; points: number[][] }> }
export type SimState = 'queued' | 'running' | 'paused' | 'completed' | 'failed' | 'cancelled';
export interface SimulationStatus {
  simulationId: string; status: SimState; circuitName: string; batchId: string | null; submittedAt: string; startedAt: string | null;
  completedAt: string | null; durationMs: number | null; cacheHit: boolean; errorMessage: string | null;
  progress: { mainSimProgress: number; currentStep: number; totalSteps: number; estimatedRemainingMs: number | null };
  results: { measurements: Record<string, number>; signals: string[]; labels?: Record<string, string>; steady?: SteadyReport } | null;
}
/** How a steady-state run found its settled period (docs/steady-state.md). */
export interface SteadyReport { converged: boolean; method: string; iterations: number; periods: number; period: number; error: number; message: string }
export interface SimulationSummary { simulationId: string; status: SimState; progress: number; circuitName: string; batchId: string | null; submittedAt: string }
/** GET /api/v1/simulations/batch/{id}/results (JSON): one row per run in batch order. */
export interface BatchResults {
  batchId: string;
  parameters: string[];
  measurements: string[];
  rows: { run: number; simulationId: string; status: SimState; parameters: Record<string, number>; measurements: Record<string, number>; durationMs: number | null; errorMessage: string | null }[];
}

export interface BatchStatus {
  batchId: string; totalSimulations: number; completed: number; failed: number; running: number; pending: number; cancelled: number;
  overallProgress: number; done: boolean; simulations: Record<string, { status: SimState; progress: number; parameterSet: Record<string, number>; errorMessage?: string }>;
}
