// Test harness of the simulation service: starts the real service on 127.0.0.1:0 in a temporary
// data directory and returns a client whose every response is checked against the OpenAPI
// description the service itself serves at /v3/api-docs. That check is the contract test: a
// status an operation does not document, a content type it does not declare, or a JSON body that
// does not match the operation's schema (ajv) fails the request with an assertion error.
//
//   const h = await startHarness({ authEnabled: true, apiKeys: ['k1'] });
//   const r = await h.client.post('/api/v1/simulations', { circuitFile: ..., simulationTime: 1e-3 });
//   expect(r.status).to.equal(202);
//   await h.client.waitForState(r.body.simulationId, 'completed');
//   await h.close();
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { startSimulationService, type SimulationServiceHandle } from '../../../src/server/server.js';
import type { SimulationServiceConfig } from '../../../src/server/config.js';

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  /** Parsed JSON for JSON responses, text otherwise. */
  body: T;
  /** The raw bytes. */
  bytes: Uint8Array;
  contentType: string;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  /** A JSON body (serialised here) or a prepared body (FormData, string, bytes). */
  body?: unknown;
  /** Skip the contract check (only for requests that deliberately break the protocol). */
  unchecked?: boolean;
}

interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
  responses: Record<string, { content?: Record<string, unknown> }>;
  security?: unknown[];
}

type OpenApi = {
  paths: Record<string, Record<string, { responses: Operation['responses']; security?: unknown[] }>>;
  security?: unknown[];
  components: { schemas: Record<string, unknown> };
};

const escapePointer = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * OpenAPI 3.0's `nullable: true` next to a `$ref`/`allOf` without `type` (as tsoa writes `X | null`)
 * becomes `anyOf: [schema, {type: 'null'}]`, which ajv understands; positions stay the same.
 */
function nullableForAjv(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(nullableForAjv);
  if (node === null || typeof node !== 'object') return node;
  const entries = Object.entries(node).map(([k, v]) => [k, nullableForAjv(v)] as const);
  const copy = Object.fromEntries(entries) as Record<string, unknown>;
  if (copy.nullable === true && copy.type === undefined) {
    const { nullable: _nullable, description, ...rest } = copy;
    return { ...(description !== undefined ? { description } : {}), anyOf: [rest, { type: 'null' }] };
  }
  return copy;
}

/** Checks responses against the served OpenAPI description. */
export class ContractChecker {
  readonly operations: Operation[];
  private readonly ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(readonly spec: OpenApi) {
    this.ajv.addSchema(nullableForAjv(spec) as object, 'openapi');
    this.operations = [];
    for (const [template, methods] of Object.entries(spec.paths)) {
      const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
      for (const [method, op] of Object.entries(methods)) {
        this.operations.push({ method: method.toUpperCase(), template, pattern, responses: op.responses, security: op.security ?? spec.security });
      }
    }
    // Literal paths before templated ones (/simulations/batch before /simulations/{id}).
    this.operations.sort((a, b) => (a.template.match(/\{/g)?.length ?? 0) - (b.template.match(/\{/g)?.length ?? 0));
  }

  find(method: string, path: string): Operation | undefined {
    return this.operations.find((op) => op.method === method && op.pattern.test(path));
  }

  private validator(pointer: string): ValidateFunction {
    let v = this.validators.get(pointer);
    if (!v) {
      v = this.ajv.compile({ $ref: `openapi#${pointer}` });
      this.validators.set(pointer, v);
    }
    return v;
  }

  /** Throws an Error describing the first mismatch. */
  check(method: string, path: string, status: number, contentType: string, body: unknown, hasBody: boolean): void {
    const where = `${method} ${path} → ${status}`;
    const op = this.find(method, path);
    if (!op) {
      if (status >= 400) return this.checkSchema('/components/schemas/ErrorBody', body, where);
      throw new Error(`${where}: no operation in /v3/api-docs matches this request`);
    }
    const key = op.responses[String(status)] ? String(status) : op.responses[`${String(status)[0]}XX`] ? `${String(status)[0]}XX` : op.responses.default ? 'default' : undefined;
    if (!key) throw new Error(`${where}: status ${status} is not documented for ${op.method} ${op.template} (documented: ${Object.keys(op.responses).join(', ')})`);
    const content = op.responses[key].content;
    if (!content || !hasBody) {
      if (hasBody && status !== 204) throw new Error(`${where}: a body was sent but ${op.template} ${key} documents none`);
      return;
    }
    const media = contentType.split(';')[0].trim().toLowerCase();
    if (!content[media]) throw new Error(`${where}: content type ${media} is not documented (documented: ${Object.keys(content).join(', ')})`);
    if (media === 'application/json') {
      const pointer = `/paths/${escapePointer(op.template)}/${op.method.toLowerCase()}/responses/${escapePointer(key)}/content/${escapePointer(media)}/schema`;
      this.checkSchema(pointer, body, where);
    }
  }

  /** Every documented JSON response example that does not match its own schema (should be none). */
  exampleMismatches(): string[] {
    const problems: string[] = [];
    for (const op of this.operations) {
      for (const [status, response] of Object.entries(op.responses)) {
        const media = (response.content?.['application/json'] ?? undefined) as { examples?: Record<string, { value: unknown }> } | undefined;
        for (const [name, example] of Object.entries(media?.examples ?? {})) {
          const pointer = `/paths/${escapePointer(op.template)}/${op.method.toLowerCase()}/responses/${escapePointer(status)}/content/application~1json/schema`;
          try {
            this.checkSchema(pointer, example.value, `${op.method} ${op.template} ${status} example ${name}`);
          } catch (error) {
            problems.push((error as Error).message);
          }
        }
      }
    }
    return problems;
  }

  private checkSchema(pointer: string, body: unknown, where: string): void {
    const validate = this.validator(pointer);
    if (!validate(body)) {
      const errors = (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '(body)'} ${e.message} ${JSON.stringify(e.params)}`).join('; ');
      throw new Error(`${where}: body does not match the documented schema: ${errors}\nbody: ${JSON.stringify(body).slice(0, 500)}`);
    }
  }
}

export class ApiClient {
  /** Headers sent with every request (e.g. X-API-Key). */
  defaultHeaders: Record<string, string> = {};

  constructor(readonly baseUrl: string, readonly contract: ContractChecker) {}

  async request<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...this.defaultHeaders, ...options.headers };
    let body: BodyInit | undefined;
    const given = options.body;
    if (given instanceof FormData || typeof given === 'string' || given instanceof Uint8Array) body = given as BodyInit;
    else if (given !== undefined) {
      body = JSON.stringify(given);
      headers['content-type'] ??= 'application/json';
    }
    const response = await fetch(new URL(path, this.baseUrl), { method, headers, body, redirect: 'manual' });
    const bytes = new Uint8Array(await response.arrayBuffer());
    const contentType = response.headers.get('content-type') ?? '';
    const isJson = contentType.includes('application/json');
    const text = new TextDecoder().decode(bytes);
    const parsed = isJson && bytes.length > 0 ? (JSON.parse(text) as unknown) : text;
    if (!options.unchecked) {
      const pathname = new URL(path, this.baseUrl).pathname;
      this.contract.check(method, pathname, response.status, contentType, parsed, bytes.length > 0);
    }
    return { status: response.status, headers: response.headers, body: parsed as T, bytes, contentType };
  }

  get<T = unknown>(path: string, options?: RequestOptions): Promise<ApiResponse<T>> {
    return this.request<T>('GET', path, options);
  }

  post<T = unknown>(path: string, body?: unknown, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    return this.request<T>('POST', path, { ...options, body });
  }

  put<T = unknown>(path: string, body?: unknown, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    return this.request<T>('PUT', path, { ...options, body });
  }

  delete<T = unknown>(path: string, options?: RequestOptions): Promise<ApiResponse<T>> {
    return this.request<T>('DELETE', path, options);
  }

  /** Uploads bytes as the multipart part `file` (POST /api/v1/circuits/parse). */
  upload<T = unknown>(path: string, content: string | Uint8Array, fileName: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const form = new FormData();
    form.append('file', new Blob([content as BlobPart]), fileName);
    return this.request<T>('POST', path, { ...options, body: form });
  }

  /** Polls GET /api/v1/simulations/{id} until its status is one of `states` (default: a final one). */
  async waitForState(id: string, states: string | string[] = ['completed', 'failed', 'cancelled'], timeoutMs = 60_000): Promise<SimulationStatusBody> {
    const wanted = Array.isArray(states) ? states : [states];
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const r = await this.get<SimulationStatusBody>(`/api/v1/simulations/${id}`);
      if (r.status !== 200) throw new Error(`GET simulation ${id}: ${r.status} ${JSON.stringify(r.body)}`);
      if (wanted.includes(r.body.status)) return r.body;
      if (Date.now() > deadline) throw new Error(`simulation ${id} is still ${r.body.status} after ${timeoutMs} ms (waiting for ${wanted.join('/')})`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/** The fields of GET /api/v1/simulations/{id} the tests read. */
export interface SimulationStatusBody {
  simulationId: string;
  status: string;
  progress: { currentStep: number; totalSteps: number; mainSimProgress: number; estimatedRemainingMs: number };
  results: { measurements: Record<string, number>; signals: string[]; labels: Record<string, string> } | null;
  errorMessage: string | null;
  cacheHit: boolean;
  batchId: string | null;
}

export interface Harness {
  handle: SimulationServiceHandle;
  client: ApiClient;
  contract: ContractChecker;
  baseUrl: string;
  dataDir: string;
  close(): Promise<void>;
}

export async function startHarness(config: Partial<SimulationServiceConfig> = {}): Promise<Harness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pesim-sim-'));
  const handle = await startSimulationService({ port: 0, host: '127.0.0.1', dataDir, logLevel: 'silent', maxConcurrent: 2, ...config });
  try {
    const spec = (await (await fetch(`${handle.url}/v3/api-docs`)).json()) as OpenApi;
    const contract = new ContractChecker(spec);
    const client = new ApiClient(handle.url, contract);
    return {
      handle,
      client,
      contract,
      baseUrl: handle.url,
      dataDir,
      async close() {
        await handle.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await handle.close();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** Base64 of a JSON netlist (the `circuitFile` of a SimulationRequest). */
export function circuitFileOf(netlist: object): string {
  return Buffer.from(JSON.stringify(netlist)).toString('base64');
}
