// The npm registry reachable from our machines serves only the linux-x64 builds of @foundry-rs/anvil and
// @foundry-rs/cast, so `npm install` leaves their other platforms' optionalDependencies out of
// package-lock.json, and `npm ci` then refuses the lock as out of sync. This adds those entries
// (optional, with os/cpu) so the lock is complete; npm skips them on a machine of another platform,
// and fetches them by name on a machine that matches. Run after `npm install` changes the lock.
import { readFileSync, writeFileSync } from 'node:fs';

const lockUrl = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(lockUrl, 'utf8'));
const PLATFORMS = { 'darwin-arm64': ['darwin', 'arm64'], 'darwin-amd64': ['darwin', 'x64'], 'linux-arm64': ['linux', 'arm64'], 'linux-amd64': ['linux', 'x64'], 'win32-amd64': ['win32', 'x64'] };
let added = 0;
for (const tool of ['anvil', 'cast']) {
  const wrapper = lock.packages[`node_modules/@foundry-rs/${tool}`];
  if (!wrapper) continue;
  for (const [name, version] of Object.entries(wrapper.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    if (lock.packages[key]) continue;
    const [os, cpu] = PLATFORMS[name.split(`${tool}-`)[1]] ?? [];
    if (!os) throw new Error(`unknown platform package ${name}`);
    lock.packages[key] = { version, cpu: [cpu], dev: true, license: wrapper.license, optional: true, os: [os] };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)));
writeFileSync(lockUrl, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: ${added} platform entries added`);
