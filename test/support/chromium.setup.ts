/**
 * vitest globalSetup: unpack the headless Chromium that @sparticuz/chromium carries (an npm package:
 * `npm ci` installs it, nothing is downloaded) once per run, before any worker starts (two unpacking
 * at once fail with ETXTBSY), and hand its path to the tests (scripts/lib/browser.mjs).
 */
import type { TestProject } from 'vitest/node';
import { chromiumPath } from '../../scripts/lib/browser.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    chromiumPath: string;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  project.provide('chromiumPath', await chromiumPath());
}
