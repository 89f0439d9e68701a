/**
 * vitest globalSetup: unpack the headless Chromium that @sparticuz/chromium carries (an npm package:
 * `npm ci` installs it, nothing is downloaded) once per run, into a folder of its own under
 * node_modules/.cache (the package unpacks into os.tmpdir() and reuses whatever it finds there; two
 * workers unpacking at once fail with ETXTBSY), and hand its path to the tests.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    chromiumPath: string;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  const dir = fileURLToPath(new URL('../../node_modules/.cache/txray-chromium-147/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  try {
    const { default: chromium } = await import('@sparticuz/chromium');
    project.provide('chromiumPath', await chromium.executablePath());
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
}
