// Where an installed package's folder is, found from its main entry (its `exports` may hide
// package.json, and a nested copy is a different folder than the top-level one).
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The folder of the package `name` as this project resolves it. */
export function packageRoot(name) {
  const entry = require.resolve(name);
  const at = entry.lastIndexOf(`node_modules/${name}/`);
  if (at === -1) throw new Error(`${name} does not resolve inside a node_modules folder (${entry})`);
  return entry.slice(0, at + `node_modules/${name}`.length);
}

/** The name of a package folder's licence file (LICENSE, LICENCE.md, COPYING, LICENSE-MIT…), if it ships one. */
export const licenceFileIn = (root) => readdirSync(root).find((f) => /^(licen[cs]e|copying)([.-]|$)/i.test(f));
