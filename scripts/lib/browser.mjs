// A headless Chromium from npm alone: @sparticuz/chromium carries the binary, playwright-core drives it.
// The package unpacks into os.tmpdir() and reuses what it finds there, so it is pointed at a folder of
// its own under node_modules/.cache while it unpacks (the tests do the same in their globalSetup).
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The unpacked binary's path (unpacked on the first call of a run; call it from one process at a time). */
export async function chromiumPath() {
  const dir = fileURLToPath(new URL('../../node_modules/.cache/txray-chromium-147/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  try {
    const { default: chromium } = await import('@sparticuz/chromium');
    return await chromium.executablePath();
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
}

/** Launch it headless; as root it needs --no-sandbox, and nothing else of the package's defaults. */
export async function launchBrowser(executablePath) {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: executablePath ?? (await chromiumPath()), args: ['--no-sandbox'], headless: true });
}
