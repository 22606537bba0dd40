// What the dashboard's end-to-end tests share: the dashboard bundle built afresh, the simulation
// service started in-process on 127.0.0.1:0 with a temporary data directory, and Debian's
// chromium (PESIM_CHROMIUM or /usr/bin/chromium) driven headless by playwright-core. Screenshots go
// to <os tmpdir>/pesim-e2e/ (outside the repository).
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildWeb } from '../../scripts/build-web.mjs';
import { startSimulationService, type SimulationServiceHandle } from '../../src/server/server.js';
import type { SimulationServiceConfig } from '../../src/server/config.js';

export const SCREENSHOT_DIR = join(tmpdir(), 'pesim-e2e');

export interface Dashboard {
  service: SimulationServiceHandle;
  browser: Browser;
  page: Page;
  /** Uncaught exceptions of the page's scripts, in order. */
  pageErrors: string[];
  /**
   * Saves a screenshot as <SCREENSHOT_DIR>/<name>.png and returns its path: the viewport, or the
   * top `height` pixels of the whole page.
   */
  screenshot(name: string, height?: number): Promise<string>;
  close(): Promise<void>;
}

export async function openDashboard(config: Partial<SimulationServiceConfig> = {}, viewport = { width: 1280, height: 720 }): Promise<Dashboard> {
  await buildWeb({ typeCheck: false });
  const dataDir = mkdtempSync(join(tmpdir(), 'pesim-e2e-data-'));
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const service = await startSimulationService({ port: 0, host: '127.0.0.1', dataDir, logLevel: 'silent', ...config });
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({
      executablePath: process.env.PESIM_CHROMIUM || '/usr/bin/chromium',
      headless: true,
      args: process.getuid?.() === 0 ? ['--no-sandbox'] : [],
      timeout: 30_000,
    });
    const page = await browser.newPage({ viewport });
    page.setDefaultTimeout(20_000);
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(service.url, { waitUntil: 'load' });
    const opened = browser;
    return {
      service,
      browser: opened,
      page,
      pageErrors,
      async screenshot(name, height) {
        const path = join(SCREENSHOT_DIR, `${name}.png`);
        const clip = height === undefined ? undefined : { x: 0, y: 0, width: viewport.width, height };
        await page.screenshot({ path, fullPage: height !== undefined, clip });
        return path;
      },
      async close() {
        await opened.close();
        await service.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await browser?.close();
    await service.close();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** Pixels of the plot canvas that are neither transparent nor the background: a curve was drawn. */
export async function drawnPixels(page: Page, selector: string): Promise<number> {
  return page.evaluate((sel) => {
    const canvas = document.querySelector<HTMLCanvasElement>(`${sel} canvas`);
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return 0;
    const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height);
    let coloured = 0;
    for (let i = 0; i < data.length; i += 4) {
      const [r, g, b, a] = [data[i], data[i + 1], data[i + 2], data[i + 3]];
      // Saturated pixels only: axes and grid are grey, the curves carry the palette's colours.
      if (a > 100 && Math.max(r, g, b) - Math.min(r, g, b) > 60) coloured++;
    }
    return coloured;
  }, selector);
}
