/**
 * The HTML report's script and styles, bundled, minified and hashed by scripts/build.mjs, which puts
 * them here (esbuild `define`). Loaded only for --html.
 */
import type { ReportAssets } from '../render/renderHtml.js';

declare const __TXRAY_REPORT__: ReportAssets | undefined;

export function reportAssets(): ReportAssets {
  if (typeof __TXRAY_REPORT__ === 'undefined') throw new Error('the report page is made by npm run build (scripts/build.mjs)');
  return __TXRAY_REPORT__;
}
