// SPICE decks uploaded to the simulation service: a deck with subcircuits and a behavioural source
// parses; a deck that includes other files cannot be read without its folder, and the 422 names the
// card's line (the service never reads its own disk for an upload).
import { expect } from 'chai';
import { startHarness, type Harness } from './harness.js';

interface Body {
  format?: string;
  componentCount?: number;
  error?: string;
  message?: string;
  details?: { line?: number }[];
}

describe('simulation service: SPICE decks with subcircuits and includes', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ maxBodyBytes: 256 * 1024 });
  });
  after(async () => h.close());

  const upload = (content: string, name: string) => h.client.upload<Body>('/api/v1/circuits/parse', content, name);

  it('parses a deck with a subcircuit and a B source', async () => {
    const deck = '* rc sections\n.subckt sec a b params: r=1k\nR1 a b {r}\nC1 b 0 1u\n.ends\nV1 in 0 1\nX1 in m sec\nX2 m out sec r=2k\nB1 o2 0 V={2*v(out)}\nR2 o2 0 1\n.tran 1u 1m\n.end\n';
    const r = await upload(deck, 'sections.cir');
    expect(r.status, JSON.stringify(r.body)).to.equal(201);
    expect(r.body.format).to.equal('spice');
  });

  it('refuses an .include not uploaded with the deck with a 422 naming the line and the file to send', async () => {
    const r = await upload('* with a library\n.include models.lib\nR1 a 0 1\n.tran 1u 1m\n.end\n', 'lib.cir');
    expect(r.status).to.equal(422);
    expect(r.body.message).to.match(/^lib\.cir:2: \.include: file 'models\.lib' .*upload it with the circuit, one multipart part "files" per file/);
    expect(r.body.details?.[0]).to.include({ line: 2 });
  });
});
