/**
 * A report opened from disk in the real headless Chromium (test/support/chromium.setup.ts), ready when
 * the page says so; `look` reads it, with the page errors seen so far. The browser is closed after.
 */
import type { Page } from 'playwright-core';
import { inject } from 'vitest';
import { launchBrowser } from '../../scripts/lib/browser.mjs';

export async function withReport<T>(file: string, look: (page: Page, problems: readonly string[]) => Promise<T>): Promise<T> {
  const browser = await launchBrowser(inject('chromiumPath'));
  try {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`file://${file}`);
    await page.waitForSelector('html[data-ready="true"]');
    return await look(page, problems);
  } finally {
    await browser.close();
  }
}
