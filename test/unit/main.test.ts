import { describe, expect, test } from 'vitest';
import { exitCodeForError, main } from '../../src/cli/main.js';
import { Interrupted, RpcFailure, UsageError } from '../../src/errors.js';
import { fakeIo } from '../support/fakeIo.js';

describe('exit codes are mapped in one place', () => {
  test.each([
    [new UsageError('x'), 2],
    [new RpcFailure('timeout', 'x'), 5],
    [new Interrupted('x'), 130],
    [new TypeError('a bug'), 70],
  ])('%s → %i', (err, code) => expect(exitCodeForError(err)).toBe(code));

  test('an internal error: exit 70, one line asking for a report, no stack without --debug', async () => {
    const env = new Proxy({} as Record<string, string | undefined>, {
      get(_t, key) {
        if (key === 'ETH_RPC_URL') throw new TypeError('environment exploded');
        return undefined;
      },
    });
    const { io, text } = fakeIo(env);
    const code = await main([`0x${'ab'.repeat(32)}`], io);
    expect(code).toBe(70);
    expect(text().out).toBe('');
    expect(text().err).toBe(
      'txray: internal error: environment exploded. This is a bug in txray; please report it (run again with --debug for details).\n',
    );

    const debug = fakeIo(env);
    expect(await main([`0x${'ab'.repeat(32)}`, '--debug', '--json'], debug.io)).toBe(70);
    expect(debug.text().err).toMatch(/\n\s+at /); // the stack, with --debug
    expect(JSON.parse(debug.text().out)).toMatchObject({ status: 'error', error: { code: 'internal' } });
  });
});
