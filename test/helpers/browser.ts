/**
 * A real Chromium for browser tests, driven by playwright-core. Debian's package (`.ci/run` installs it) at
 * /usr/bin/chromium, or CHROMIUM_PATH. Where none is found the browser tests are skipped with the reason in
 * the run's summary, and fail on CI (`describeBrowser`, through needs.ts).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type Page, chromium } from 'playwright-core';
import { type SiteServer, startSiteServer } from './site-server.ts';
import { describe } from 'vitest';
import { needProgram, programPath } from './needs.ts';

/** `describe` when a Chromium is installed; otherwise the suite is skipped (needs.ts records why). */
export function describeBrowser(name: string, body: () => void): void {
  describe.runIf(needProgram('chromium', `the browser tests (${name})`))(name, body);
}

/**
 * Headless, no sandbox (tests run as root), and none of Chromium's own network traffic (the machine's network
 * is closed; background requests would only fail), with a fresh profile.
 */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = programPath('chromium');
  if (!executablePath) throw new Error('no Chromium');
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

/** Where screenshots go (git-ignored). */
export const ARTIFACTS = join(import.meta.dirname, '..', 'artifacts', 'screenshots');

/** A full-page screenshot under test/artifacts/screenshots/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/**
 * Collects what would make a page wrong without failing a step: console errors (content-security-policy
 * violations among them), uncaught exceptions, and failed loads of a page's resources. A test asserts the list
 * is empty at its end (a test that expects an error status for a fetch filters it out).
 */
export function watchPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  // Name the address of a failed load (the console message does not).
  page.on('response', (r) => {
    if (r.status() >= 400 && r.request().resourceType() !== 'document') errors.push(`${r.status()}: ${r.url()}`);
  });
  return errors;
}

/** What a browser test file works with: the site server, the browser, a page and the page's errors. */
export interface BrowserSite {
  s: SiteServer;
  browser: Browser;
  page: Page;
  errors: string[];
  close(): Promise<void>;
}

/**
 * The site server and a Chromium page (1200×900, downloads accepted) whose errors are collected; call it in
 * a browser test file's beforeAll and `close()` in its afterAll.
 */
export async function openBrowserSite(): Promise<BrowserSite> {
  const s = await startSiteServer();
  const browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  return {
    s,
    browser,
    page,
    errors: watchPageErrors(page),
    async close() {
      await browser.close();
      await s.close();
    },
  };
}
