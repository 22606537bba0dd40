// The job-queue WebSocket at /ws, read by a real `ws` client: subscribe, ordered updates ending in the
// final state, unsubscribe, and error messages (not a closed socket) for bad input.
import { expect } from 'chai';
import WebSocket from 'ws';
import { startTestService, waitForState, type TestService } from './harness.js';

type Message = { type: string; task_id?: string; status?: string; progress?: number; error_code?: string; detail?: string };

class Client {
  readonly messages: Message[] = [];
  private waiters: (() => void)[] = [];

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.messages.push(JSON.parse(data.toString()) as Message);
      for (const w of this.waiters.splice(0)) w();
    });
  }

  static async open(url: string): Promise<Client> {
    const ws = new WebSocket(url);
    const client = new Client(ws);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    return client;
  }

  send(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** Resolves with the first message (from `from` on) that satisfies the predicate. */
  async next(predicate: (m: Message) => boolean, from = 0): Promise<Message> {
    for (;;) {
      const found = this.messages.slice(from).find(predicate);
      if (found) return found;
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }
}

describe('job-queue service: WebSocket /ws', function () {
  this.timeout(60_000);
  let service: TestService;
  let client: Client;
  before(async () => {
    service = await startTestService();
    client = await Client.open(`${service.url.replace('http', 'ws')}/ws`);
  });
  after(async () => {
    client.ws.close();
    await service.dispose();
  });

  it('answers malformed messages and unknown tasks with error messages and keeps the socket open', async () => {
    client.send('not json');
    expect(await client.next((m) => m.type === 'error')).to.include({ error_code: 'VALIDATION_ERROR' });
    const from = client.messages.length;
    client.send({ action: 'dance', task_id: 'x' });
    expect(await client.next((m) => m.type === 'error', from)).to.include({ error_code: 'VALIDATION_ERROR' });
    const from2 = client.messages.length;
    client.send({ action: 'subscribe', task_id: 'no-such-task' });
    expect(await client.next((m) => m.type === 'error', from2)).to.include({ error_code: 'TASK_NOT_FOUND', task_id: 'no-such-task' });
    expect(client.ws.readyState).to.equal(WebSocket.OPEN);
  });

  it('streams a task from queued or running to completed with progress non-decreasing from 0 to 1', async () => {
    const r = await service.request('POST', '/simulations', { model_file: 'medium.json' });
    const id = (r.body as { task_id: string }).task_id;
    const from = client.messages.length;
    client.send({ action: 'subscribe', task_id: id });
    await client.next((m) => m.task_id === id && m.status === 'completed', from);
    const updates = client.messages.slice(from).filter((m) => m.task_id === id);
    for (const u of updates) expect(u).to.have.all.keys('type', 'task_id', 'status', 'progress');
    expect(['queued', 'running']).to.include(updates[0].status);
    const progress = updates.map((u) => u.progress!);
    for (let i = 1; i < progress.length; i++) expect(progress[i], `update ${i}`).to.be.at.least(progress[i - 1]);
    for (const p of progress) expect(p).to.be.within(0, 1);
    expect(updates.some((u) => u.status === 'running' && u.progress! > 0 && u.progress! < 1), 'an intermediate progress update').to.equal(true);
    expect(updates[updates.length - 1]).to.include({ status: 'completed', progress: 1 });
    expect(updates.filter((u) => u.status === 'completed')).to.have.length(1);
  });

  it('sends the final state at once for a finished task, and acknowledges unsubscribe', async () => {
    const id = ((await service.request('POST', '/simulations', { model_file: 'rc.json' })).body as { task_id: string }).task_id;
    await waitForState(service, id, ['completed']);
    const from = client.messages.length;
    client.send({ action: 'subscribe', task_id: id });
    expect(await client.next((m) => m.task_id === id, from)).to.deep.equal({ type: 'update', task_id: id, status: 'completed', progress: 1 });
    const long = ((await service.request('POST', '/simulations', { model_file: 'long.json' })).body as { task_id: string }).task_id;
    const from2 = client.messages.length;
    client.send({ action: 'subscribe', task_id: long });
    await client.next((m) => m.task_id === long, from2);
    client.send({ action: 'unsubscribe', task_id: long });
    expect(await client.next((m) => m.type === 'unsubscribed', from2)).to.deep.equal({ type: 'unsubscribed', task_id: long });
    // A second client sees the cancellation as the final update.
    const other = await Client.open(`${service.url.replace('http', 'ws')}/ws`);
    other.send({ action: 'subscribe', task_id: long });
    await other.next((m) => m.task_id === long);
    await service.request('DELETE', `/simulations/${long}`);
    expect(await other.next((m) => m.status === 'cancelled')).to.include({ task_id: long, type: 'update' });
    other.ws.close();
    const after = client.messages.slice(client.messages.findIndex((m) => m.type === 'unsubscribed') + 1);
    expect(after.filter((m) => m.task_id === long && m.type === 'update')).to.deep.equal([]);
  });
});
