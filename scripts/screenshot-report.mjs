// `npm run screenshot`: the README's picture of the HTML report (docs/report.png), made the way a
// user makes one: a local anvil, the showcase transaction, `txray --html`, opened in headless Chromium.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startAnvil } from './lib/anvil.mjs';
import { launchBrowser } from './lib/browser.mjs';
import { makeScenarios, writeFoundryProject } from './lib/scenarios.mjs';

const bin = fileURLToPath(new URL('../bin/txray.cjs', import.meta.url));
const out = fileURLToPath(new URL('../docs/report.png', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'txray-screenshot-'));
const anvil = await startAnvil();
try {
  const { hashes } = await makeScenarios(anvil.rpc);
  writeFoundryProject(dir);
  const file = join(dir, 'showcase.html');
  const r = spawnSync(process.execPath, [bin, hashes.showcase, '--rpc-url', anvil.url, '--html', file, '--quiet'], { cwd: dir, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`txray exited ${r.status}`);
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 }, deviceScaleFactor: 1 });
    await page.goto(`file://${file}`);
    await page.waitForSelector('html[data-ready="true"]');
    await page.locator('.tree .line', { hasText: 'Child::ping' }).first().click();
    mkdirSync(fileURLToPath(new URL('../docs/', import.meta.url)), { recursive: true });
    await page.screenshot({ path: out });
    console.log(`wrote ${out}`);
  } finally {
    await browser.close();
  }
} finally {
  await anvil.stop();
  rmSync(dir, { recursive: true, force: true });
}
