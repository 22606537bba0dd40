// The dashboard's access paths in chromium: with API keys on, the page says a key is needed and
// works once one is entered (kept in sessionStorage, sent as X-API-Key), with a file dropped on
// the page and the run started from the keyboard; the job-queue panel shows a real job-queue
// service's statistics and tasks; the page at phone width in the dark scheme.
// Screenshots: <os tmpdir>/pesim-e2e/.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { openDashboard, type Dashboard } from './browser.js';
import { startTestService, type TestService } from '../integration/jobq/harness.js';

const BUCK = 'test/fixtures/gecko/buck_simple.ipes';

describe('dashboard (chromium): API key, job queue, phone width', function () {
  this.timeout(60_000);

  describe('with API keys on', () => {
    let d: Dashboard;
    before(async function () {
      this.timeout(90_000);
      d = await openDashboard({ authEnabled: true, apiKeys: ['e2e-key'] });
    });
    after(async () => d?.close());

    it('reports the missing key, then works with the key entered', async () => {
      const { page } = d;
      await page.setInputFiles('#file', BUCK);
      await page.waitForSelector('#open-errors li');
      expect(await page.textContent('#open-errors')).to.contain('API key');
      await page.fill('#api-key', 'e2e-key');
      await page.press('#api-key', 'Enter');
      // This time the file is dropped on the page.
      const bytes = [...readFileSync(BUCK)];
      const transfer = await page.evaluateHandle((content) => {
        const data = new DataTransfer();
        data.items.add(new File([new Uint8Array(content)], 'buck_simple.ipes'));
        return data;
      }, bytes);
      await page.dispatchEvent('#drop', 'drop', { dataTransfer: transfer });
      await page.waitForSelector('#schematic svg g.component');
      expect(await page.evaluate(() => sessionStorage.getItem('pesim.apiKey'))).to.equal('e2e-key');
      // Keyboard only: the Run button is reached and pressed without the mouse.
      await page.focus('#run-start');
      await page.keyboard.press('Enter');
      await page.waitForSelector('#run[data-state="COMPLETED"]', { timeout: 30_000 });
      await page.waitForSelector('#plot canvas');
      await d.screenshot('7-api-key');
      expect(d.pageErrors).to.deep.equal([]);
    });
  });

  describe('job queue and phone width', () => {
    let d: Dashboard;
    let jobq: TestService;
    before(async function () {
      this.timeout(90_000);
      jobq = await startTestService();
      d = await openDashboard({}, { width: 390, height: 844 });
      await d.page.emulateMedia({ colorScheme: 'dark' });
    });
    after(async () => {
      await d?.close();
      await jobq?.dispose();
    });

    it('shows the job queue statistics and a followed task', async () => {
      const submitted = await jobq.request('POST', '/simulations', { model_file: 'buck_simple.ipes' });
      const taskId = (submitted.body as { task_id: string }).task_id;
      const { page } = d;
      await page.fill('#jobq-url', jobq.url);
      await page.click('#jobq-form button[type="submit"]');
      await page.waitForSelector('#jobq-stats tbody tr');
      expect(await page.textContent('#jobq-status')).to.contain('healthy');
      await page.fill('#jobq-task', taskId);
      await page.click('#jobq-follow');
      await page.waitForSelector('#jobq-tasks tbody tr[data-status="completed"]', { timeout: 30_000 });
      expect(await page.textContent('#jobq-tasks tbody')).to.contain('buck_simple.ipes');
      await page.locator('#jobq').scrollIntoViewIfNeeded();
      await d.screenshot('8-jobq-phone-dark');
    });

    it('fits a phone width without horizontal scrolling, in the dark scheme', async () => {
      const { page } = d;
      await page.setInputFiles('#file', BUCK);
      await page.waitForSelector('#schematic svg g.component');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).to.be.at.most(0);
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      expect(background).to.equal('rgb(21, 24, 28)');
      await page.locator('#circuit').scrollIntoViewIfNeeded();
      await d.screenshot('9-phone-schematic');
      expect(d.pageErrors).to.deep.equal([]);
    });

    it('keeps a long circuit name within the width, and a big schematic\'s names legible at Fit', async () => {
      const { page } = d;
      const buffer = readFileSync('test/fixtures/gecko/singlePhase_PWM_converter.ipes');
      await page.setInputFiles('#file', { name: 'single_phase_pwm_converter_with_a_long_descriptive_name.ipes', mimeType: 'application/octet-stream', buffer });
      await page.waitForFunction(() => document.querySelector('#circuit-name')?.textContent?.startsWith('single_phase_pwm'));
      await page.waitForFunction(() => [...document.querySelectorAll('#circuit-select option')].some((o) => o.textContent!.includes('long_descriptive')));
      const wide = await page.evaluate(() => [...document.querySelectorAll<HTMLElement>('body *')].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1 && !e.closest('.scroll, .schematic')).map((e) => `${e.tagName}#${e.id}.${e.className}`).slice(0, 8));
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), wide.join(' ')).to.be.at.most(0);
      await page.click('#zoom-fit');
      const smallest = await page.evaluate(() => Math.min(...[...document.querySelectorAll('#schematic svg g.component text.name')].map((t) => t.getBoundingClientRect().height)));
      expect(smallest).to.be.at.least(9);
      await page.locator('#circuit').scrollIntoViewIfNeeded();
      await d.screenshot('9b-phone-big-schematic');
      expect(d.pageErrors).to.deep.equal([]);
    });
  });
});
