// GET /api/v1/circuits/{id}/schematic through HTTP: an .ipes circuit's components at their grid
// positions with their domains and its wires; a SPICE circuit's components without positions;
// 404 for an unknown circuit. Every response is checked against the served OpenAPI description.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startHarness, type Harness } from './harness.js';

interface SchematicBody {
  hasGeometry: boolean;
  components: Array<{ name: string; kind: string; domain: string; position: { x: number; y: number; orientation: number } | null }>;
  wires: Array<{ domain: string; label: string; points: number[][] }>;
}

const ipes = readFileSync(fileURLToPath(new URL('../../fixtures/gecko/buck_simple.ipes', import.meta.url)));

describe('simulation service: circuit schematic', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(async () => h.close());

  it('returns the .ipes geometry: every component placed, wires of the power and control domains', async () => {
    const parsed = await h.client.upload<{ circuitId: string; componentCount: number }>('/api/v1/circuits/parse', ipes, 'buck_simple.ipes');
    const r = await h.client.get<SchematicBody>(`/api/v1/circuits/${parsed.body.circuitId}/schematic`);
    expect(r.status).to.equal(200);
    expect(r.body.hasGeometry).to.equal(true);
    expect(r.body.components).to.have.length(parsed.body.componentCount);
    expect(r.body.components.every((c) => c.position !== null)).to.equal(true);
    const s1 = r.body.components.find((c) => c.name === 'S.1')!;
    expect(s1).to.include({ kind: 'element', domain: 'power' });
    expect(s1.position).to.deep.equal({ x: 6, y: 4, orientation: 502 });
    expect(r.body.components.find((c) => c.name === 'SIGNAL.1')).to.include({ kind: 'block', domain: 'control' });
    expect(new Set(r.body.wires.map((w) => w.domain))).to.deep.equal(new Set(['power', 'control']));
    expect(r.body.wires.every((w) => w.points.length > 0 && w.points.every((p) => p.length === 2))).to.equal(true);
  });

  it('returns the components of a SPICE deck without positions', async () => {
    const parsed = await h.client.upload<{ circuitId: string; componentCount: number }>('/api/v1/circuits/parse', '* rc\nV1 in 0 DC 1\nR1 in out 1k\nC1 out 0 1u\n.tran 1u 5m\n.end\n', 'rc.cir');
    const r = await h.client.get<SchematicBody>(`/api/v1/circuits/${parsed.body.circuitId}/schematic`);
    expect(r.body.hasGeometry).to.equal(false);
    expect(r.body.components).to.have.length(parsed.body.componentCount);
    expect(r.body.components.filter((c) => c.kind === 'element').map((c) => c.name)).to.have.length(3);
    expect(r.body.components.every((c) => c.position === null)).to.equal(true);
    expect(r.body.wires).to.deep.equal([]);
  });

  it('answers 404 CIRCUIT_NOT_FOUND for an unknown circuit', async () => {
    const r = await h.client.get<{ error: string }>('/api/v1/circuits/no-such-id/schematic');
    expect(r.status).to.equal(404);
    expect(r.body.error).to.equal('CIRCUIT_NOT_FOUND');
  });
});
