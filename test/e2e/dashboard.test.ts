// The dashboard in a real browser (chromium via playwright-core) against the real simulation
// service: open a GeckoCIRCUITS file, see its schematic (one symbol per component), run it and see
// COMPLETED and a plotted curve, its periodic steady state (one settled period with its report), signals labelled with a y-axis per scale, a reader error shown with its line number, a 5-value sweep (5
// rows, a 5-point plot), a 2 × 2 grid, the simulations list, a parameter edited (run as shown, stored as a copy when asked), a long run
// paused, resumed and cancelled, a circuit opened with its data file.
// Screenshots of each step: <os tmpdir>/pesim-e2e/*.png.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { drawnPixels, openDashboard, type Dashboard } from './browser.js';

const BUCK = 'test/fixtures/gecko/buck_simple.ipes';

describe('dashboard (chromium)', function () {
  this.timeout(60_000);
  let d: Dashboard;
  before(async function () {
    this.timeout(90_000);
    d = await openDashboard();
  });
  after(async () => d?.close());

  it('serves the page with caching headers and keeps the API and the reference pages', async () => {
    const index = await fetch(`${d.service.url}/`);
    expect(index.status).to.equal(200);
    expect(index.headers.get('content-type')).to.match(/text\/html/);
    expect(index.headers.get('cache-control')).to.equal('no-cache');
    const html = await index.text();
    const script = /src="(app-[\w-]+\.js)"/.exec(html)?.[1];
    expect(script, 'bundle referenced from index.html').to.be.a('string');
    const bundle = await fetch(`${d.service.url}/${script}`);
    expect(bundle.headers.get('cache-control')).to.contain('immutable');
    const again = await fetch(`${d.service.url}/`, { headers: { 'If-None-Match': index.headers.get('etag')! } });
    expect(again.status).to.equal(304);
    expect((await fetch(`${d.service.url}/api/v1/health`)).status).to.equal(200);
    expect((await fetch(`${d.service.url}/swagger-ui/`)).status).to.equal(200);
    expect((await fetch(`${d.service.url}/no-such-file.js`)).status).to.equal(404);
  });

  it('opens a GeckoCIRCUITS file and draws one symbol per component', async () => {
    const { page } = d;
    await page.setInputFiles('#file', BUCK);
    await page.waitForSelector('#schematic svg g.component');
    const list = (await (await fetch(`${d.service.url}/api/v1/circuits`)).json()) as { circuits: Array<{ componentCount: number; name: string }> };
    expect(list.circuits).to.have.length(1);
    const symbols = await page.locator('#schematic svg g.component').count();
    expect(symbols).to.equal(list.circuits[0].componentCount);
    expect(await page.locator('#schematic svg polyline.wire').count()).to.be.greaterThan(0);
    expect(await page.locator('#component-table tbody tr').count()).to.equal(list.circuits[0].componentCount);
    await d.screenshot('1-schematic');
  });

  it('runs the circuit, reaches COMPLETED and plots a curve', async () => {
    const { page } = d;
    await page.click('#run-start');
    await page.waitForSelector('#run[data-state="COMPLETED"]', { timeout: 30_000 });
    expect(await page.textContent('#run-state')).to.equal('COMPLETED');
    await page.waitForSelector('#plot canvas');
    const points = Number(await page.getAttribute('#plot', 'data-points'));
    expect(points).to.be.greaterThan(10);
    await page.waitForFunction(() => document.querySelectorAll('#measurements tbody tr').length > 0);
    expect(await drawnPixels(page, '#plot')).to.be.greaterThan(50);
    await d.screenshot('2-completed');
    // The overview of the README (docs/dashboard.png is a copy of it).
    await d.screenshot('dashboard', 1380);
  });

  it('labels the signals (u2, iL) in the picker, the legend and the measurements, with a y-axis per scale', async () => {
    const { page } = d;
    expect(await page.textContent('#signal-picker')).to.contain('u2 (SCOPE.1.ch3)');
    const legend = await page.textContent('#plot .u-legend');
    expect(legend).to.contain('u1 (SCOPE.1.ch1)').and.to.contain('uS (SCOPE.1.ch2)');
    expect(await page.getAttribute('#plot', 'data-axes')).to.equal('1'); // 48 V and 0–48 V: one axis
    const row = page.locator('#measurements tbody tr', { has: page.locator('th', { hasText: /^SCOPE\.1\.ch4_avg$/ }) });
    expect(await row.locator('td').first().textContent()).to.equal('iL');
    // 48 V next to a 0–1 gate signal: two y-axes, each titled with its signal.
    await page.uncheck('#signal-picker input[value="SCOPE.1.ch2"]');
    await page.check('#signal-picker input[value="SCOPE.1.ch6"]');
    await page.waitForFunction(() => document.querySelector('#plot')?.getAttribute('data-axes') === '2');
    expect(await page.getAttribute('#plot', 'aria-label')).to.match(/on 2 y-axes: (u1 \(SCOPE\.1\.ch1\); gate \(SCOPE\.1\.ch6\)|gate \(SCOPE\.1\.ch6\); u1 \(SCOPE\.1\.ch1\))$/);
    await d.screenshot('2b-axes');
  });

  it('shows the reader error with its line number', async () => {
    const { page } = d;
    await page.setInputFiles('#file', { name: 'broken.cir', mimeType: 'text/plain', buffer: Buffer.from('* deck\nR1 a 0 1k\nQ9 x y z nonsense\n.tran 1u 1m\n.end\n') });
    await page.waitForSelector('#open-errors li');
    const errors = await page.textContent('#open-errors');
    expect(errors).to.match(/line \d+/);
    await d.screenshot('3-error');
  });

  it('runs a 5-value sweep: 5 rows in the table and a 5-point plot', async () => {
    const { page } = d;
    await page.fill('#sweep-p1', 'R.1.R');
    await page.fill('#sweep-v1', '2:10:5');
    await page.click('#sweep-start');
    await page.waitForFunction(() => document.querySelectorAll('#sweep-table tbody tr[data-status="completed"]').length === 5, undefined, { timeout: 45_000 });
    await page.waitForSelector('#sweep-plot[data-points="5"]');
    expect(await page.locator('#sweep-table tbody tr').count()).to.equal(5);
    const firstColumn = await page.locator('#sweep-table tbody tr td:first-child').allTextContents();
    expect(firstColumn.map(Number).sort((a, b) => a - b)).to.deep.equal([2, 4, 6, 8, 10]);
    expect(await page.inputValue('#sweep-measure')).to.match(/_(avg|rms|min|max)$/);
    expect(await drawnPixels(page, '#sweep-plot')).to.be.greaterThan(20);
    await page.locator('#sweep').scrollIntoViewIfNeeded();
    await d.screenshot('4-sweep');
  });

  it('runs a 2 × 2 grid of two parameters: 4 rows, one line per value of the second', async () => {
    const { page } = d;
    await page.fill('#sweep-v1', '5, 10');
    await page.fill('#sweep-p2', 'L.1.L');
    await page.fill('#sweep-v2', '0.0003, 0.0006');
    await page.click('#sweep-start');
    await page.waitForFunction(() => document.querySelectorAll('#sweep-table tbody tr[data-status="completed"]').length === 4, undefined, { timeout: 45_000 });
    await page.waitForSelector('#sweep-plot[data-points="4"]');
    expect(await page.locator('#sweep-table thead th').allTextContents()).to.include.members(['R.1.R', 'L.1.L']);
    expect(await page.locator('#sweep-plot .u-legend .u-series').count()).to.equal(3);
    await page.fill('#sweep-p2', '');
    await page.fill('#sweep-v2', '');
  });

  it('lists the simulations, filtered by state', async () => {
    const { page } = d;
    await page.selectOption('#sim-status', 'completed');
    await page.click('#sim-filter button[type="submit"]');
    await page.waitForFunction(() => document.querySelectorAll('#sim-table tbody tr').length === 10);
    expect(await page.locator('#sim-table tbody tr[data-status="completed"]').count()).to.equal(10);
    await page.selectOption('#sim-status', 'failed');
    await page.click('#sim-filter button[type="submit"]');
    await page.waitForFunction(() => document.querySelectorAll('#sim-table tbody tr').length === 0);
    await page.locator('#simulations').scrollIntoViewIfNeeded();
    await d.screenshot('5-simulations');
  });

  it('finds the steady state: one settled period plotted, with its Newton iterations and periodicity error', async () => {
    const { page } = d;
    await page.click('#run-steady');
    await page.waitForFunction(() => /^Steady state/.test(document.querySelector('#run-steady-report')?.textContent ?? ''), undefined, { timeout: 30_000 });
    expect(await page.textContent('#run-state')).to.equal('COMPLETED');
    const id = (await page.textContent('#run-id'))!.replace('Simulation ', '');
    const status = (await (await fetch(`${d.service.url}/api/v1/simulations/${id}`)).json()) as {
      request: { steady?: unknown };
      results: { steady: { converged: boolean; method: string; iterations: number; error: number; period: number; stepsPerPeriod: number } };
    };
    expect(status.request.steady).to.equal(true);
    const steady = status.results.steady;
    expect(steady.converged).to.equal(true);
    expect(steady.method).to.equal('shooting');
    expect(steady.error).to.be.at.most(1e-9);
    const report = (await page.textContent('#run-steady-report'))!;
    expect(report).to.contain('Steady state found');
    expect(report).to.contain(`period ${(steady.period * 1e3).toPrecision(4)} ms`);
    expect(report).to.contain(`${steady.iterations} Newton iterations`);
    expect(report).to.contain(`periodicity error ${steady.error.toExponential(1)}`);
    // The plot holds the settled period only: one sample per step of it, not the long start-up.
    await page.waitForFunction((n) => Number(document.querySelector('#plot')?.getAttribute('data-points')) === n, steady.stepsPerPeriod + 1);
    expect(await drawnPixels(page, '#plot')).to.be.greaterThan(50);
    await d.screenshot('5b-steady-state');
  });

  it('runs with an edited parameter value as the form shows it, without storing a copy', async () => {
    const { page } = d;
    const before = await page.locator('#circuit-select option').count();
    await page.fill('input[data-key="R.1.R"]', '20');
    await page.click('#run-start');
    await page.waitForSelector('#run[data-state="COMPLETED"]', { timeout: 30_000 });
    const id = (await page.textContent('#run-id'))!.replace('Simulation ', '');
    const status = (await (await fetch(`${d.service.url}/api/v1/simulations/${id}`)).json()) as { request: { parameters?: Record<string, number> } };
    expect(status.request.parameters).to.deep.equal({ 'R.1.R': 20 });
    expect(await page.locator('#circuit-select option').count()).to.equal(before);
  });

  it('stores a copy with an edited parameter value only when asked, and names copies of copies without piling up "(copy)"', async () => {
    const { page } = d;
    const original = (await page.textContent('#circuit-name'))!.split(' · ')[0];
    await page.click('#save-copy');
    await page.waitForSelector('#params-status:has-text("Stored as")');
    await page.waitForFunction((name) => document.querySelector('#circuit-name')?.textContent?.startsWith(`${name} (copy) ·`), original);
    const copyId = await page.getAttribute('#circuit', 'data-circuit-id');
    const components = (await (await fetch(`${d.service.url}/api/v1/circuits/${copyId}/components`)).json()) as { components: Array<{ name: string; parameters: Record<string, unknown> }> };
    expect(components.components.find((c) => c.name === 'R.1')?.parameters.R).to.equal(20);
    // The page refreshes its component table and circuit list after the copy: wait for both.
    await page.waitForFunction(() => document.querySelector<HTMLInputElement>('input[data-key="R.1.R"]')?.value === '20');
    await page.waitForFunction(() => document.querySelectorAll('#circuit-select option').length === 3);
    await page.click('#save-copy');
    await page.waitForFunction((name) => document.querySelector('#circuit-name')?.textContent?.startsWith(`${name} (copy 2) ·`), original);
    await page.waitForFunction(() => document.querySelectorAll('#circuit-select option').length === 4);
  });

  it('pauses, resumes and cancels a long run', async () => {
    const { page } = d;
    await page.locator('#components').scrollIntoViewIfNeeded();
    await page.fill('#set-duration', '40');
    await page.click('#settings-form button[type="submit"]');
    await page.waitForSelector('#params-status:has-text("Settings saved")');
    await page.click('#run-start');
    await page.waitForSelector('#run[data-state="RUNNING"]', { timeout: 30_000 });
    await page.waitForFunction(() => Number(document.querySelector<HTMLProgressElement>('#run-progress')?.value) > 2);
    await page.click('#run-pause');
    await page.waitForSelector('#run[data-state="PAUSED"]');
    // The paused run shows the progress it reached, as /progress reports it.
    const id = (await page.textContent('#run-id'))!.replace('Simulation ', '');
    await page.waitForTimeout(1000);
    const reached = ((await (await fetch(`${d.service.url}/api/v1/simulations/${id}/progress`)).json()) as { mainSimProgress: number }).mainSimProgress;
    expect(Number((await page.textContent('#run-percent'))!.replace(' %', ''))).to.be.closeTo(reached, 0.5);
    await page.click('#run-resume');
    await page.waitForSelector('#run[data-state="RUNNING"]');
    await page.waitForFunction(() => Number(document.querySelector<HTMLProgressElement>('#run-progress')?.value) > 0);
    await page.click('#run-cancel');
    await page.waitForSelector('#run[data-state="CANCELLED"]');
    expect(await page.textContent('#run-state')).to.equal('CANCELLED');
    expect(await page.isDisabled('#run-cancel')).to.equal(true);
    await page.locator('#run').scrollIntoViewIfNeeded();
    await d.screenshot('6-cancelled');
  });

  it('opens a circuit with the data file it names, chosen together, and names the file when it is missing', async () => {
    const { page } = d;
    const model = 'test/fixtures/gecko-corpus/027_cmNoise.ipes';
    await page.setInputFiles('#file', model);
    await page.waitForSelector('#open-errors li');
    expect(await page.textContent('#open-errors')).to.contain("'swissuCM.txt'").and.to.contain('"files"');
    await page.setInputFiles('#file', [
      { name: 'swissuCM.txt', mimeType: 'text/plain', buffer: Buffer.from('0 0\n1e-3 1\n') },
      { name: '027_cmNoise.ipes', mimeType: 'application/octet-stream', buffer: readFileSync(model) },
    ]);
    await page.waitForFunction(() => document.querySelector('#circuit-name')?.textContent?.startsWith('027_cmNoise'));
    expect(await page.textContent('#open-errors')).to.equal('');
  });

  it('raised no script error on the way', () => {
    expect(d.pageErrors).to.deep.equal([]);
  });
});
