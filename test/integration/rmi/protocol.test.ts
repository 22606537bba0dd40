// The XML-RPC listener under hostile or wrong requests, with Python's xmlrpc.client and raw HTTP:
// API keys (basic auth with the key as password, X-API-Key), a billion-laughs body, malformed XML,
// a 100 MB body against the 64 MB default limit, wrong paths and methods — each a clear answer,
// and the server still serving afterwards.
import { expect } from 'chai';
import { startRmiHarness, type RmiHarness } from './harness.js';

async function post(url: string, body: string | Buffer, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const response = await fetch(url, { method: 'POST', body, headers: { 'Content-Type': 'text/xml', ...headers } });
  return { status: response.status, text: await response.text() };
}

const LIST_METHODS = '<?xml version="1.0"?><methodCall><methodName>system.listMethods</methodName><params/></methodCall>';

describe('XML-RPC: keys, limits and malformed requests', function () {
  this.timeout(120_000);

  describe('with API keys on', () => {
    let h: RmiHarness;
    before(async () => {
      h = await startRmiHarness({ authEnabled: true, apiKeys: ['k-one', 'k-two'] });
    });
    after(async () => h?.close());

    it('accepts the key as the basic-auth password or in X-API-Key, refuses others with 401', async () => {
      const url = new URL(h.rmiUrl);
      const withKey = (key: string): string => `http://user:${key}@${url.host}/RPC2`;
      const r = await h.python<unknown[]>(`
res = [len(connect(${JSON.stringify(withKey('k-two'))}).system.listMethods()) > 0]
for u in (URL, ${JSON.stringify(withKey('wrong'))}):
    try:
        connect(u).system.listMethods()
        res.append("no error")
    except xmlrpc.ProtocolError as e:
        res.append([e.errcode, e.errmsg])
out(res)
`);
      expect(r[0]).to.equal(true);
      expect(r[1]).to.deep.equal([401, 'Unauthorized']);
      expect(r[2]).to.deep.equal([401, 'Unauthorized']);
      const header = await post(h.rmiUrl, LIST_METHODS, { 'X-API-Key': 'k-one' });
      expect(header.status).to.equal(200);
      expect(header.text).to.contain('plecs.simulate');
      const refused = await post(h.rmiUrl, LIST_METHODS);
      expect(refused.status).to.equal(401);
      expect(refused.text).to.contain('needs an API key');
    });
  });

  describe('with keys off', () => {
    let h: RmiHarness;
    before(async () => {
      h = await startRmiHarness();
    });
    after(async () => h?.close());

    it('refuses a billion-laughs body at its DOCTYPE and keeps serving', async () => {
      const entities = Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join('');
      const body = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol0 "lol">${entities}]><methodCall><methodName>&lol9;</methodName></methodCall>`;
      const r = await post(h.rmiUrl, body);
      expect(r.status).to.equal(200);
      expect(r.text).to.contain('<int>-32700</int>').and.contain('DOCTYPE is not accepted');
      expect((await post(h.rmiUrl, LIST_METHODS)).text).to.contain('system.listMethods');
    });

    it('answers malformed XML, non-XML-RPC documents and wrong types with faults naming the problem', async () => {
      const cases: [string, RegExp][] = [
        ['<methodCall><methodName>x', /-32700.*malformed XML/s],
        ['not xml at all', /-32700.*malformed XML/s],
        ['', /-32700.*must contain a root element/s],
        ['<methodCall><params/></methodCall>', /-32600.*needs a &lt;methodName&gt;/s],
        ['<methodCall><methodName>loadCircuit</methodName><params><param><value><int>1.5</int></value></param></params></methodCall>', /-32600.*must hold an integer/s],
        ['<methodCall><methodName>loadCircuit</methodName><params><param><value><struct><member><value>1</value></member></struct></value></param></params></methodCall>', /-32600.*needs a &lt;name&gt;/s],
      ];
      for (const [body, expected] of cases) {
        const r = await post(h.rmiUrl, body);
        expect(r.status, body).to.equal(200);
        expect(r.text, body).to.match(expected);
      }
      // Python's client sees them as faults.
      const f = await h.python<{ fault: { code: number; string: string } }>(`
server.loadCircuit({"path": "x"})
`);
      expect(f.fault.code).to.equal(-32602);
      expect(f.fault.string).to.match(/loadCircuit: argument 1 \(path\) must be a string, got struct/);
    });

    it('refuses a 100 MB body with a TOO_LARGE fault the client receives, and keeps serving', async () => {
      const r = await h.python<{ fault: { code: number; string: string } }>(`
server.loadCircuit("x" * (100 * 1024 * 1024))
`);
      expect(r.fault.code).to.equal(413);
      expect(r.fault.string).to.match(/exceeds the limit of 67108864 bytes \(SIM_RMI_MAX_BODY_SIZE\)/);
      // Without Content-Length (chunked), the count stops it too.
      const chunks = (async function* () {
        yield Buffer.from('<methodCall><methodName>');
        for (let i = 0; i < 70; i++) yield Buffer.alloc(1024 * 1024, 0x61);
      })();
      const response = await fetch(h.rmiUrl, { method: 'POST', body: chunks as unknown as BodyInit, duplex: 'half' } as RequestInit);
      expect(await response.text()).to.contain('<int>413</int>');
      expect(await h.python<string[]>('out(server.system.listMethods())')).to.include('plecs.simulate');
    });

    it('answers large bodies (parsed on the parsing thread) as small ones', async () => {
      const r = await h.python<[number, string][]>(`
fault(lambda: server.getParameter("R" * 2000000, "R"))
fault(lambda: server.getParameter("&<" * 500000, "R"))
fault(lambda: server.getParameter(xmlrpc.Binary(b"x" * 1000000), "R"))
out(res)
`);
      expect(r[0][0]).to.equal(1);
      expect(r[1][0]).to.equal(1);
      expect(r[2]).to.deep.equal([-32602, 'getParameter: argument 1 (component) must be a string, got base64']);
      const malformed = await post(h.rmiUrl, `<methodCall><methodName>x</methodName><params><param><value><string>${'a'.repeat(400_000)}</value>`);
      expect(malformed.text).to.match(/-32700.*malformed XML/s);
    });

    it('answers other paths with 404 and other HTTP methods with 405', async () => {
      const base = new URL(h.rmiUrl);
      const other = await post(`http://${base.host}/api`, LIST_METHODS);
      expect(other.status).to.equal(404);
      const get = await fetch(h.rmiUrl);
      expect(get.status).to.equal(405);
      expect(get.headers.get('allow')).to.equal('POST');
      const root = await post(`http://${base.host}/`, LIST_METHODS);
      expect(root.status).to.equal(200);
    });
  });
});
