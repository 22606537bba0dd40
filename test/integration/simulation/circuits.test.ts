// Circuit endpoints through HTTP: parse (.ipes, SPICE, JSON detected by content), list with
// paging, info, components, validate, clone with overrides, settings update, delete, and their
// errors (400, 404, 413, 422 with line numbers and component names). Every response is checked
// against the served OpenAPI description by the harness.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buck, rcStep } from '../../fixtures/circuits.js';
import { startHarness, type Harness } from './harness.js';

interface CircuitBody {
  circuitId: string;
  name: string;
  format: string;
  componentCount: number;
  nodeCount: number;
  parameters: { simulationDuration: number; timeStep: number; solverType: string };
  globalParameters: Record<string, number>;
}
interface ErrorBody {
  error: string;
  message: string;
  details?: { field: string; message: string; line?: number; component?: string }[];
}

const ipes = readFileSync(fileURLToPath(new URL('../../fixtures/gecko/buck_simple.ipes', import.meta.url)));
const spiceDeck = '* rc low-pass\nV1 in 0 DC 1\nR1 in out 1k\nC1 out 0 1u\n.tran 1u 5m\n.end\n';

describe('simulation service: circuits', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ maxBodyBytes: 256 * 1024 });
  });
  after(async () => h.close());

  const upload = (content: string | Uint8Array, name: string) => h.client.upload<CircuitBody & ErrorBody>('/api/v1/circuits/parse', content, name);

  it('parses a JSON netlist, a SPICE deck and a GeckoCIRCUITS .ipes file, detected by content', async () => {
    const json = await upload(JSON.stringify(buck()), 'whatever.txt');
    expect(json.status).to.equal(201);
    expect(json.headers.get('location')).to.equal(`/api/v1/circuits/${json.body.circuitId}/info`);
    expect(json.body).to.include({ name: 'buck', format: 'json', componentCount: 11, nodeCount: 3 });
    expect(json.body.parameters).to.deep.equal({ simulationDuration: 20e-3, timeStep: 100e-9, solverType: 'backward-euler' });

    const spice = await upload(spiceDeck, 'rc.cir');
    expect(spice.status).to.equal(201);
    expect(spice.body).to.include({ format: 'spice', nodeCount: 2 });
    expect(spice.body.name).to.contain('rc low-pass'); // the deck's title line
    expect(spice.body.parameters).to.deep.equal({ simulationDuration: 5e-3, timeStep: 1e-6, solverType: 'trapezoidal' });

    const gecko = await upload(ipes, 'buck_simple.ipes');
    expect(gecko.status).to.equal(201);
    expect(gecko.body).to.include({ format: 'ipes', name: 'buck_simple', componentCount: 14 });
    expect(gecko.body.parameters.simulationDuration).to.equal(1e-3);
  });

  it('rejects unreadable and unsimulatable files with 422 naming the line or the component', async () => {
    const badJson = await upload('{"settings": {"tEnd": 1,\n "dt": }', 'bad.json');
    expect(badJson.status).to.equal(422);
    expect(badJson.body.error).to.equal('CIRCUIT_INVALID');
    expect(badJson.body.details?.[0]).to.include({ field: 'line 2', line: 2 });

    const badSpice = await upload('* bad\nV1 in 0 DC 1\nQ1 a b c qmod\n.tran 1u 1m\n.end\n', 'bad.cir');
    expect(badSpice.status).to.equal(422);
    expect(badSpice.body.details?.[0]).to.include({ line: 3, component: 'Q1' });

    const loop = rcStep('backward-euler', 1e-5);
    loop.elements.push({ name: 'V.9', type: 'V', nodes: ['in', '0'], params: { waveform: 'dc', value: 3 } });
    const model = await upload(JSON.stringify(loop), 'loop.json');
    expect(model.status).to.equal(422);
    expect(model.body.error).to.equal('CIRCUIT_INVALID');
    expect(JSON.stringify(model.body.details)).to.contain('V.9');

    // A misspelt parameter of a JSON netlist would run with the default: it is named instead.
    const misspelt = buck();
    misspelt.blocks![0].params = { ...misspelt.blocks![0].params, dutty: 0.2 };
    const typo = await upload(JSON.stringify(misspelt), 'typo.json');
    expect(typo.status).to.equal(422);
    expect(typo.body.error).to.equal('CIRCUIT_INVALID');
    expect(typo.body.details?.[0]).to.include({ field: 'SIGNAL.1.dutty', component: 'SIGNAL.1' });
    expect(typo.body.details?.[0].message).to.match(/unknown parameter 'dutty': SIGNAL\.1 \(SIGNAL\) reads .*\bduty\b/);
  });

  it('reads the data files uploaded with a circuit (parts "files"), and names the ones missing in its refusal', async () => {
    const parse = (circuit: [Uint8Array, string], ...data: Array<[string, string]>) => {
      const form = new FormData();
      form.append('file', new Blob([circuit[0]]), circuit[1]);
      for (const [name, text] of data) form.append('files', new Blob([text]), name);
      return h.client.request<CircuitBody & ErrorBody>('POST', '/api/v1/circuits/parse', { body: form });
    };
    // A GeckoCIRCUITS model whose common-mode signal is imported from swissuCM.txt.
    const model: [Uint8Array, string] = [readFileSync(new URL('../../fixtures/gecko-corpus/027_cmNoise.ipes', import.meta.url)), '027_cmNoise.ipes'];
    const refused = await parse(model);
    expect(refused.status).to.equal(422);
    expect(refused.body.message).to.contain("'swissuCM.txt'").and.to.contain('multipart part "files"');
    expect(refused.body.details?.find((d) => d.field === 'files')?.message).to.contain("'swissuCM.txt'");
    const stored = await parse(model, ['swissuCM.txt', '0 0\n1e-3 1\n']);
    expect(stored.status, JSON.stringify(stored.body)).to.equal(201);
    // A SPICE deck with a PWL source read from a file.
    const deck: [Uint8Array, string] = [new TextEncoder().encode('* pwl\nV1 in 0 PWL file=ramp.txt\nR1 in 0 1k\n.tran 1u 1m\n.end\n'), 'pwl.cir'];
    const without = await parse(deck);
    expect(without.status).to.equal(422);
    expect(without.body.message).to.contain("'ramp.txt'").and.to.contain('multipart part "files"');
    const withIt = await parse(deck, ['ramp.txt', '0 0\n1m 5\n']);
    expect(withIt.status, JSON.stringify(withIt.body)).to.equal(201);
  });

  it('answers 400 without a file part and 413 for a body over the limit', async () => {
    const none = await h.client.request<ErrorBody>('POST', '/api/v1/circuits/parse', { body: new FormData() });
    expect(none.status).to.equal(400);
    expect(none.body.error).to.equal('VALIDATION_ERROR');
    expect(none.body.details?.[0].field).to.equal('file');
    const empty = await upload(new Uint8Array(0), 'empty.ipes');
    expect(empty.status, JSON.stringify(empty.body)).to.equal(400);
    expect(empty.body.error).to.equal('VALIDATION_ERROR');
    expect(empty.body.details?.[0].field).to.equal('file');
    expect(empty.body.message).to.match(/empty/);
    const truncated = await h.client.request<ErrorBody>('POST', '/api/v1/circuits/parse', {
      headers: { 'content-type': 'multipart/form-data; boundary=XX' },
      body: '--XX\r\nContent-Disposition: form-data; name="file"; filename="a.cir"\r\n\r\nR1 a 0 1',
    });
    expect(truncated.status).to.equal(400);
    expect(truncated.body.details?.[0].message).to.contain('multipart/form-data');
    const prose = await upload('hello world\nthis is a note, not a circuit\n', 'note.txt');
    expect(prose.status).to.equal(422);
    expect(prose.body.message).to.contain('not a GeckoCIRCUITS .ipes file').and.contain('not a JSON netlist').and.contain('not a SPICE deck');
    const big = await upload(new Uint8Array(400 * 1024).fill(0x20), 'big.cir');
    expect(big.status).to.equal(413);
    expect(big.body.error).to.equal('PAYLOAD_TOO_LARGE');
    const bigJson = await h.client.put<ErrorBody>('/api/v1/circuits/x/parameters', { solverType: 'trapezoidal', pad: 'x'.repeat(300 * 1024) });
    expect(bigJson.status).to.equal(413);
  });

  it('lists circuits newest first with paging, and shows info and components', async () => {
    const a = await upload(JSON.stringify({ ...rcStep('trapezoidal', 1e-5), name: 'list-a' }), 'a.json');
    const b = await upload(JSON.stringify({ ...rcStep('trapezoidal', 1e-5), name: 'list-b' }), 'b.json');
    const page = await h.client.get<{ circuits: CircuitBody[]; total: number }>('/api/v1/circuits?limit=2');
    expect(page.status).to.equal(200);
    expect(page.body.circuits.map((c) => c.name)).to.deep.equal(['list-b', 'list-a']);
    const next = await h.client.get<{ circuits: CircuitBody[]; total: number }>('/api/v1/circuits?limit=1&offset=1');
    expect(next.body.circuits[0].circuitId).to.equal(a.body.circuitId);
    expect(next.body.total).to.equal(page.body.total);
    const badLimit = await h.client.get<ErrorBody>('/api/v1/circuits?limit=5000');
    expect(badLimit.status).to.equal(400);
    expect(badLimit.body.details?.[0].field).to.equal('limit');

    const info = await h.client.get<CircuitBody>(`/api/v1/circuits/${b.body.circuitId}/info`);
    expect(info.body).to.deep.include({ circuitId: b.body.circuitId, name: 'list-b', componentCount: 5 });
    const comps = await h.client.get<{ components: { name: string; kind: string; nodes: string[]; parameters: Record<string, unknown> }[] }>(`/api/v1/circuits/${b.body.circuitId}/components`);
    expect(comps.status).to.equal(200);
    const r1 = comps.body.components.find((c) => c.name === 'R.1')!;
    expect(r1).to.deep.include({ kind: 'element', nodes: ['in', 'out'], parameters: { R: 1000 } });
    expect(comps.body.components.find((c) => c.name === 'SCOPE.1')?.kind).to.equal('block');
  });

  it('validates a stored circuit and reports its warnings', async () => {
    const c = await upload(JSON.stringify(buck()), 'buck.json');
    const v = await h.client.post<{ valid: boolean; errors: unknown[] }>(`/api/v1/circuits/${c.body.circuitId}/validate`);
    expect(v.status).to.equal(200);
    expect(v.body.valid).to.equal(true);
    expect(v.body.errors).to.deep.equal([]);
  });

  it('applies the step limit to the settings: PUT parameters refuses them (422) and /validate calls them invalid', async () => {
    const c = await upload(JSON.stringify(rcStep('trapezoidal', 1e-5)), 'rc.json');
    const put = await h.client.put<ErrorBody>(`/api/v1/circuits/${c.body.circuitId}/parameters`, { simulationDuration: 1000, timeStep: 1e-9 });
    expect(put.status).to.equal(422);
    expect(put.body.error).to.equal('SIMULATION_TOO_LARGE');
    expect(put.body.message).to.contain('sim.api.max-steps');
    expect(put.body.details?.[0].field).to.equal('timeStep');
    const unchanged = await h.client.get<CircuitBody>(`/api/v1/circuits/${c.body.circuitId}/info`);
    expect(unchanged.body.parameters.simulationDuration).to.not.equal(1000);
    const hours = await upload(JSON.stringify({ ...rcStep('trapezoidal', 1e-5), settings: { tEnd: 1000, dt: 1e-9 } }), 'hours.json');
    const v = await h.client.post<{ valid: boolean; errors: { code: string; message: string }[] }>(`/api/v1/circuits/${hours.body.circuitId}/validate`);
    expect(v.body.valid).to.equal(false);
    expect(v.body.errors[0].code).to.equal('SIMULATION_TOO_LARGE');
  });

  it('clones with overrides (201), refusing unknown keys and out-of-range values', async () => {
    const c = await upload(JSON.stringify(rcStep('trapezoidal', 1e-5)), 'rc.json');
    const clone = await h.client.post<CircuitBody>(`/api/v1/circuits/${c.body.circuitId}/clone`, { overrides: { 'R.1.R': 250 }, name: 'rc-fast' });
    expect(clone.status).to.equal(201);
    expect(clone.body.circuitId).to.not.equal(c.body.circuitId);
    expect(clone.body).to.include({ name: 'rc-fast', componentCount: 5 });
    const comps = await h.client.get<{ components: { name: string; parameters: Record<string, unknown> }[] }>(`/api/v1/circuits/${clone.body.circuitId}/components`);
    expect(comps.body.components.find((x) => x.name === 'R.1')?.parameters.R).to.equal(250);
    const original = await h.client.get<{ components: { name: string; parameters: Record<string, unknown> }[] }>(`/api/v1/circuits/${c.body.circuitId}/components`);
    expect(original.body.components.find((x) => x.name === 'R.1')?.parameters.R).to.equal(1000);

    const plain = await h.client.post<CircuitBody>(`/api/v1/circuits/${c.body.circuitId}/clone`);
    expect(plain.status).to.equal(201);
    expect(plain.body.name).to.equal('circuit (copy)'.replace('circuit', c.body.name));

    const unknown = await h.client.post<ErrorBody>(`/api/v1/circuits/${c.body.circuitId}/clone`, { overrides: { 'R.9.R': 1 } });
    expect(unknown.status).to.equal(400);
    expect(unknown.body.details?.[0].field).to.equal('overrides.R.9.R');
    const misspelt = await h.client.post<ErrorBody>(`/api/v1/circuits/${c.body.circuitId}/clone`, { overrides: { 'R.1.Z': 1 } });
    expect(misspelt.status).to.equal(400);
    expect(misspelt.body.details?.[0].field).to.equal('overrides.R.1.Z');
    expect(misspelt.body.details?.[0].message).to.contain('its parameters: R');
    const wrongType = await h.client.post<ErrorBody>(`/api/v1/circuits/${c.body.circuitId}/clone`, { overrides: { 'R.1.R': 'ten' } });
    expect(wrongType.status).to.equal(400);
    expect(wrongType.body.error).to.equal('VALIDATION_ERROR');
    const missing = await h.client.post<ErrorBody>('/api/v1/circuits/0b7d4c1e-8f2a-4e6b-9d3c-5a1f0e2b7c49/clone', {});
    expect(missing.status).to.equal(404);
    expect(missing.body.error).to.equal('CIRCUIT_NOT_FOUND');
  });

  it('updates the simulation settings (200) and checks them', async () => {
    const c = await upload(JSON.stringify(rcStep('trapezoidal', 1e-5)), 'rc.json');
    const r = await h.client.put<CircuitBody>(`/api/v1/circuits/${c.body.circuitId}/parameters`, { simulationDuration: 2e-3, solverType: 'gear-shichman' });
    expect(r.status).to.equal(200);
    expect(r.body.parameters).to.deep.equal({ simulationDuration: 2e-3, timeStep: 1e-5, solverType: 'gear-shichman' });
    const info = await h.client.get<CircuitBody>(`/api/v1/circuits/${c.body.circuitId}/info`);
    expect(info.body.parameters.solverType).to.equal('gear-shichman');
    const negative = await h.client.put<ErrorBody>(`/api/v1/circuits/${c.body.circuitId}/parameters`, { timeStep: -1 });
    expect(negative.status).to.equal(400);
    expect(negative.body.details?.[0].field).to.equal('timeStep');
    const solver = await h.client.put<ErrorBody>(`/api/v1/circuits/${c.body.circuitId}/parameters`, { solverType: 'runge-kutta' });
    expect(solver.status).to.equal(400);
    expect(solver.body.details?.[0].field).to.equal('solverType');
    const extra = await h.client.put<ErrorBody>(`/api/v1/circuits/${c.body.circuitId}/parameters`, { tEnd: 1 });
    expect(extra.status).to.equal(400);
  });

  it('deletes (204) and then answers 404 for the id', async () => {
    const c = await upload(JSON.stringify(rcStep('trapezoidal', 1e-5)), 'rc.json');
    const del = await h.client.delete(`/api/v1/circuits/${c.body.circuitId}`);
    expect(del.status).to.equal(204);
    expect(del.bytes.length).to.equal(0);
    for (const r of [await h.client.get<ErrorBody>(`/api/v1/circuits/${c.body.circuitId}/info`), await h.client.delete<ErrorBody>(`/api/v1/circuits/${c.body.circuitId}`)]) {
      expect(r.status).to.equal(404);
      expect(r.body.error).to.equal('CIRCUIT_NOT_FOUND');
    }
  });
});
