/**
 * --online's disk cache: one small JSON file per answer (a chain and address, a selector), so a second
 * lookup of the same transaction asks nothing and works with the network gone. Written to a temporary
 * file and renamed into place, so two processes writing at once never leave half a file; a file that
 * does not parse is ignored (and written again after the next answer).
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** TXRAY_CACHE_DIR, else $XDG_CACHE_HOME/txray, else ~/.cache/txray (null: no home to put it in). */
export function cacheDirOf(env: Readonly<Record<string, string | undefined>>): string | null {
  if (env.TXRAY_CACHE_DIR) return env.TXRAY_CACHE_DIR;
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'txray');
  let home: string;
  try {
    home = env.HOME ?? homedir();
  } catch {
    return null;
  }
  return home === '' ? null : join(home, '.cache', 'txray');
}

interface Entry<T> {
  readonly at: number;
  readonly value: T;
}

/**
 * The value stored under `key` (a relative path of safe parts), unless missing, damaged or older than
 * `maxAgeMs` (null: any age; a function: the age its value may reach).
 */
export function cacheRead<T>(dir: string | null, key: string, maxAgeMs: number | null | ((value: T) => number | null), now = Date.now()): T | undefined {
  if (dir === null) return undefined;
  try {
    const entry = JSON.parse(readFileSync(join(dir, key), 'utf8')) as Entry<T>;
    if (typeof entry !== 'object' || entry === null || typeof entry.at !== 'number' || !('value' in entry)) return undefined;
    const limit = typeof maxAgeMs === 'function' ? maxAgeMs(entry.value) : maxAgeMs;
    if (limit !== null && now - entry.at > limit) return undefined;
    return entry.value;
  } catch {
    return undefined;
  }
}

/** Store `value` under `key`; a cache that cannot be written is no cache (nothing is thrown). */
export function cacheWrite(dir: string | null, key: string, value: unknown, now = Date.now()): void {
  if (dir === null) return;
  const file = join(dir, key);
  try {
    mkdirSync(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    writeFileSync(tmp, JSON.stringify({ at: now, value }));
    renameSync(tmp, file);
  } catch {
    /* read-only home, full disk: the next lookup asks again */
  }
}
