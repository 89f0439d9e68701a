/**
 * The shells the completion tests drive. bash is on every machine; zsh and fish are Debian packages,
 * installed here when missing and this process may (root, with apt-get): once per test run.
 */
import { spawnSync } from 'node:child_process';

const has = (shell: string): boolean => spawnSync('sh', ['-c', `command -v ${shell}`], { stdio: 'ignore' }).status === 0;

let tried = false;

/** Whether `shell` can be run, after installing zsh and fish once where they are missing and apt-get is at hand. */
export function ensureShell(shell: 'bash' | 'zsh' | 'fish'): boolean {
  if (has(shell)) return true;
  if (!tried && process.getuid?.() === 0 && has('apt-get')) {
    tried = true;
    const install = (): number | null => spawnSync('apt-get', ['install', '-y', '-qq', 'zsh', 'fish'], { stdio: 'ignore', timeout: 120_000, env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }).status;
    // A machine whose package lists were never read needs them first.
    if (install() !== 0) {
      spawnSync('apt-get', ['update', '-qq'], { stdio: 'ignore', timeout: 120_000 });
      install();
    }
  }
  return has(shell);
}
