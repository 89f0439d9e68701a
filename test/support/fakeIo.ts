import { PassThrough } from 'node:stream';

/** An Io for main in-process: its stdout and stderr kept as text (`text()`), the given environment. */
export function fakeIo(env: Record<string, string | undefined>, more: { sigdb?: URL } = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += d));
  stderr.on('data', (d) => (err += d));
  return { io: { stdout, stderr, env, ...more }, text: () => ({ out, err }) };
}
