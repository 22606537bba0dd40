// Generated request bodies against both services, route by route from their OpenAPI descriptions:
// JSON bodies that follow the schema in part and break it elsewhere (wrong types, extreme numbers,
// long and odd strings, deep nesting), multipart bodies with random bytes and broken framing, and
// random query strings. Seeded (PESIM_FUZZ_SEED) and bounded in count and time. Every answer must
// come (no hang), none may be a 500, and every error must have its service's error shape.
import { expect } from 'chai';
import { startHarness, type Harness } from './simulation/harness.js';
import { startTestService, type TestService } from './jobq/harness.js';
import { mulberry32 } from '../fixtures/prng.js';

type Schema = Record<string, unknown>;
interface OpenApi {
  paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: Schema }> }; parameters?: { name: string; in: string }[] }>>;
  components?: { schemas?: Record<string, Schema> };
}

const SEED = Number(process.env.PESIM_FUZZ_SEED ?? 20261124);
const REQUESTS_PER_ROUTE = 12;
const REQUEST_TIMEOUT_MS = 15_000;


class Fuzzer {
  constructor(private readonly random: () => number, private readonly spec: OpenApi) {}

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)];
  }

  chance(p: number): boolean {
    return this.random() < p;
  }

  number(): number {
    return this.pick([0, -1, 1, 0.5, 1e-9, 5e-324, 1e308, -1e308, 2 ** 53 + 1, 1e6, -0, 3.3e-7, 1000, 100_000_000]);
  }

  string(): string {
    return this.pick([
      '', 'x', 'R.1.R', '$Vin', '../../../etc/passwd', '\u0000', 'é€😀', 'a'.repeat(5000), 'NaN', '1e999', 'null', '{"a":', 'SCOPE.1.ch1',
      'trapezoidal', 'HIGH', 'csv', Buffer.from('R1 a 0 1\n.tran 1u 1m\n.end\n').toString('base64'), '00000000-0000-0000-0000-000000000000',
    ]);
  }

  junk(depth: number): unknown {
    const kind = this.pick(['number', 'string', 'bool', 'null', 'array', 'object', 'deep']);
    if (kind === 'number') return this.number();
    if (kind === 'string') return this.string();
    if (kind === 'bool') return this.chance(0.5);
    if (kind === 'null') return null;
    if (depth > 3) return this.string();
    if (kind === 'array') {
      // One long flat array (past the batch and queue limits); nested arrays stay short.
      if (this.chance(0.2)) return Array.from({ length: 1001 }, () => this.number());
      return Array.from({ length: this.pick([0, 1, 3]) }, () => this.junk(depth + 1));
    }
    if (kind === 'deep') {
      let nested: unknown = 1;
      for (let i = 0; i < 200; i++) nested = { a: nested };
      return nested;
    }
    return { [this.string()]: this.junk(depth + 1), 'R.1.R': this.junk(depth + 1) };
  }

  resolve(schema: Schema | undefined): Schema | undefined {
    const ref = schema?.$ref;
    if (typeof ref === 'string') return this.spec.components?.schemas?.[ref.replace('#/components/schemas/', '')];
    return schema;
  }

  /** A value that follows `schema` most of the time and breaks it sometimes. */
  value(schema: Schema | undefined, depth: number): unknown {
    const s = this.resolve(schema);
    if (!s || this.chance(0.2) || depth > 4) return this.junk(depth);
    const variants = (s.anyOf ?? s.oneOf ?? s.allOf) as Schema[] | undefined;
    if (variants) return this.value(this.pick(variants), depth + 1);
    if (Array.isArray(s.enum)) return this.chance(0.7) ? this.pick(s.enum as unknown[]) : this.string();
    switch (s.type) {
      case 'number':
      case 'integer':
        return this.number();
      case 'string':
        return this.string();
      case 'boolean':
        return this.chance(0.5);
      case 'array':
        return Array.from({ length: this.pick([0, 1, 2, 5]) }, () => this.value(s.items as Schema, depth + 1));
      case 'object': {
        const out: Record<string, unknown> = {};
        for (const [key, sub] of Object.entries((s.properties ?? {}) as Record<string, Schema>)) if (this.chance(0.75)) out[key] = this.value(sub, depth + 1);
        if (s.additionalProperties && this.chance(0.5)) out[this.string()] = this.value(s.additionalProperties as Schema, depth + 1);
        return out;
      }
      default:
        return this.junk(depth);
    }
  }

  multipart(): { body: Uint8Array; contentType: string } {
    const boundary = `b${Math.floor(this.random() * 1e9)}`;
    const bytes = Uint8Array.from({ length: this.pick([0, 1, 64, 4096]) }, () => Math.floor(this.random() * 256));
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="${this.pick(['file', 'other', ''])}"; filename="${this.pick(['a.ipes', 'b.cir', 'c.json', ''])}"\r\n\r\n`;
    const tail = this.pick([`\r\n--${boundary}--\r\n`, '', `\r\n--${boundary}`, '\r\n--wrong--\r\n']);
    const body = Buffer.concat([Buffer.from(head), Buffer.from(bytes), Buffer.from(tail)]);
    return { body, contentType: this.pick([`multipart/form-data; boundary=${boundary}`, 'multipart/form-data', 'application/octet-stream']) };
  }

  query(): string {
    const names = ['limit', 'offset', 'status', 'state', 'level', 'format', 'signals', 'maxPoints', 'start', 'end', 'batchId', 'harmonics', 'confirm'];
    const parts = Array.from({ length: this.pick([1, 2, 3]) }, () => `${this.pick(names)}=${encodeURIComponent(String(this.pick([this.number(), this.string(), 'abc', '-5', '1e400'])))}`);
    return `?${parts.join('&')}`;
  }
}

function concretePath(path: string, fuzz: Fuzzer): string {
  return path.replace(/\{[^}]+\}/g, () => encodeURIComponent(fuzz.pick(['00000000-0000-0000-0000-000000000000', 'x', '..', 'a'.repeat(300), '%00'])));
}

async function send(url: string, init: RequestInit): Promise<{ status: number; body: unknown; text: string }> {
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: the shape check below reports it
  }
  return { status: response.status, body, text };
}

type ShapeCheck = (status: number, body: unknown) => string | undefined;

const simulationShape: ShapeCheck = (_status, body) => {
  const b = body as Record<string, unknown>;
  if (typeof b !== 'object' || b === null) return 'not a JSON object';
  if (typeof b.error !== 'string' || typeof b.message !== 'string' || typeof b.path !== 'string' || typeof b.timestamp !== 'string') return 'not {error, message, path, timestamp}';
  return undefined;
};

const jobqShape: ShapeCheck = (status, body) => {
  const b = body as Record<string, unknown>;
  if (typeof b !== 'object' || b === null) return 'not a JSON object';
  if (typeof b.error_code !== 'string') return 'no error_code';
  if (status === 422 && Array.isArray(b.detail)) {
    return (b.detail as Record<string, unknown>[]).every((d) => Array.isArray(d.loc) && typeof d.msg === 'string' && typeof d.type === 'string') ? undefined : 'detail items are not {loc, msg, type}';
  }
  return typeof b.detail === 'string' ? undefined : 'detail is not a string';
};

async function fuzzService(baseUrl: string, spec: OpenApi, seed: number, shape: ShapeCheck, skip: (method: string, path: string) => boolean): Promise<string[]> {
  const fuzz = new Fuzzer(mulberry32(seed), spec);
  const problems: string[] = [];
  for (const [path, methods] of Object.entries(spec.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (skip(method, path)) continue;
      const content = operation.requestBody?.content ?? {};
      for (let i = 0; i < REQUESTS_PER_ROUTE; i++) {
        const url = `${baseUrl}${concretePath(path, fuzz)}${fuzz.chance(0.5) ? fuzz.query() : ''}`;
        const init: RequestInit = { method: method.toUpperCase() };
        if (content['multipart/form-data']) {
          const { body, contentType } = fuzz.multipart();
          init.body = body;
          init.headers = { 'content-type': contentType };
        } else if (method !== 'get' && method !== 'delete') {
          const json = content['application/json']?.schema;
          init.body = fuzz.chance(0.1) ? fuzz.pick(['{', '[]', 'null', '"x"', '{"a":1,}', '\u0000']) : JSON.stringify(fuzz.value(json, 0));
          init.headers = { 'content-type': 'application/json' };
        }
        const what = `${init.method} ${url.slice(baseUrl.length, baseUrl.length + 120)} body ${String(init.body ?? '').slice(0, 160)}`;
        let answer: { status: number; body: unknown; text: string };
        try {
          answer = await send(url, init);
        } catch (error) {
          problems.push(`${what}: no answer (${(error as Error).message})`);
          continue;
        }
        if (answer.status >= 500) problems.push(`${what}: ${answer.status} ${answer.text.slice(0, 200)}`);
        else if (answer.status >= 400) {
          const wrong = shape(answer.status, answer.body);
          if (wrong) problems.push(`${what}: ${answer.status} error body ${wrong}: ${answer.text.slice(0, 200)}`);
        }
      }
    }
  }
  return problems;
}

describe('fuzzed request bodies on both services', function () {
  this.timeout(300_000);
  let sim: Harness;
  let jobq: TestService;
  before(async () => {
    sim = await startHarness({ maxSteps: 20_000, maxConcurrent: 1, cacheEnabled: false });
    jobq = await startTestService((c) => {
      c.orchestration.max_concurrent_simulations = 1;
    });
  });
  after(async () => {
    await sim?.close();
    await jobq?.dispose();
  });

  it(`simulation service: no 500, no hang, errors in its shape (seed ${SEED})`, async () => {
    const spec = (await (await fetch(`${sim.baseUrl}/v3/api-docs`)).json()) as OpenApi;
    // The event stream stays open by design; it is exercised in sse.test.ts.
    const problems = await fuzzService(sim.baseUrl, spec, SEED, simulationShape, (_m, path) => path.endsWith('/stream'));
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });

  it(`job-queue service: no 500, no hang, errors in its shape (seed ${SEED})`, async () => {
    const spec = (await (await fetch(`${jobq.url}/openapi.json`)).json()) as OpenApi;
    const problems = await fuzzService(jobq.url, spec, SEED, jobqShape, () => false);
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });

  // Cases the generator above does not reach, each once a 500: the answer names the field at fault.
  const nested = (levels: number): string => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

  it('JSON nested 5 000 deep to /api/v1/analysis/rms: 400 naming the field', async () => {
    const r = await send(`${sim.baseUrl}/api/v1/analysis/rms`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"data":[${nested(5000)}]}` });
    expect(r.status, r.text).to.equal(400);
    expect(simulationShape(r.status, r.body)).to.equal(undefined);
    expect((r.body as { details: { field: string; message: string }[] }).details[0]).to.deep.equal({ field: 'data', message: 'holds objects or arrays nested deeper than 64 levels' });
  });

  it('metadata nested 1 000 deep, or holding 1e999, to the job queue: 422 at metadata', async () => {
    const expected = [{ metadata: nested(1000), loc: ['body', 'metadata'], type: 'value_error' }, { metadata: '{"run": 1e999}', loc: ['body', 'metadata', 'run'], type: 'finite_number' }];
    for (const { metadata, loc, type } of expected) {
      const r = await send(`${jobq.url}/simulations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: `{"model_file": "rc.json", "metadata": ${metadata}}` });
      expect(r.status, r.text).to.equal(422);
      expect(jobqShape(r.status, r.body)).to.equal(undefined);
      expect((r.body as { detail: { loc: unknown[]; type: string }[] }).detail[0]).to.deep.include({ loc, type });
    }
    expect(jobq.runtime.store.tasks.list({}).total, 'nothing stored').to.equal(0);
  });

  it('offset=9223372036854775807 or 1e20 on the lists: an empty page', async () => {
    for (const list of ['/api/v1/simulations', '/api/v1/circuits']) {
      for (const offset of ['9223372036854775807', '1e20']) {
        const r = await send(`${sim.baseUrl}${list}?offset=${offset}`, {});
        expect(r.status, `${list}?offset=${offset}: ${r.text}`).to.equal(200);
        expect((r.body as { total: number }).total).to.be.a('number');
      }
    }
  });

  it('errors name the field: __proto__ keys, a body that is not JSON (415), circuitFile that is no circuit', async () => {
    const proto = await send(`${sim.baseUrl}/api/v1/simulations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"circuitFile": "x", "parameters": {"__proto__": {"a": 1}}}' });
    expect(proto.status, proto.text).to.equal(400);
    expect((proto.body as { details: { field: string }[] }).details[0].field).to.equal('parameters.__proto__');
    const jobqProto = await send(`${jobq.url}/simulations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"model_file": "rc.json", "__proto__": {"a": 1}}' });
    expect(jobqProto.status, jobqProto.text).to.equal(422);
    expect((jobqProto.body as { detail: { loc: unknown[] }[] }).detail[0].loc).to.deep.equal(['body', '__proto__']);
    for (const [url, body] of [[`${sim.baseUrl}/api/v1/simulations`, '{"circuitFile": "abc"}'], [`${jobq.url}/simulations`, '{"model_file": "rc.json"}']]) {
      const r = await send(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body });
      expect(r.status, r.text).to.equal(415);
      expect(r.text).to.contain('text/plain').and.contain('application/json');
    }
    const abc = await send(`${sim.baseUrl}/api/v1/simulations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"circuitFile": "abc"}' });
    expect(abc.status, abc.text).to.equal(422);
    expect((abc.body as { message: string }).message).to.match(/^circuitFile: /);
    expect((abc.body as { details: { field: string }[] }).details[0].field).to.equal('circuitFile');
  });
});
