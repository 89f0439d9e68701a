import type { Command } from 'commander';
import { describe, expect, test } from 'vitest';
import { type CommandLine, newSeen, parseCommandLine } from '../../src/cli/commandLine.js';
import { createDebugProgram } from '../../src/cli/createDebugProgram.js';
import { createCallProgram, createProgram } from '../../src/cli/createProgram.js';
import { exitCodeForError } from '../../src/cli/errorWords.js';
import { DoorOpener, readOptions } from '../../src/cli/frontDoor.js';
import { SafeWriter } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { DEFAULT_MAX_RESPONSE_MB, DEFAULT_TIMEOUT_S } from '../../src/cli/parseOptions.js';
import { RunLog } from '../../src/cli/runLog.js';
import { UsageError } from '../../src/errors.js';
import { fakeIo } from '../support/fakeIo.js';

const H = `0x${'ab'.repeat(32)}`;
const A = `0x${'12'.repeat(20)}`;

describe('one parse per command line: each command and its options', () => {
  const parsed = (argv: string[]): CommandLine => parseCommandLine(argv, newSeen());

  test('the lookup: its hashes and options', () => {
    expect(parsed([H, H, '--json', '-r', 'http://a:1', '-H', 'A: 1', '-H', 'B: 2'])).toMatchObject({ kind: 'run', args: { hashes: [H, H], options: { json: true, rpcUrl: 'http://a:1', header: ['A: 1', 'B: 2'] } } });
  });

  test('txray call, and call --tx: the words, the options, no hashes', () => {
    expect(parsed(['call', A, 'f(uint256)', '1', '--from', A, '--json'])).toMatchObject({ kind: 'run', args: { hashes: [], call: { words: [A, 'f(uint256)', '1'], options: { from: A, json: true } } } });
    expect(parsed(['call', '--tx', H, '--override-balance', `${A}:1ether`])).toMatchObject({ kind: 'run', args: { call: { words: [], options: { tx: H, overrideBalance: [`${A}:1ether`] } } } });
  });

  test('a hash, -, or a word no typo away from a command is a hash word, never taken for a command', () => {
    expect(parsed([H, 'blok'])).toMatchObject({ kind: 'run', args: { hashes: [H, 'blok'] } });
    expect(parsed(['-'])).toMatchObject({ kind: 'run', args: { hashes: ['-'] } });
    expect(parsed(['0xb10c'])).toMatchObject({ kind: 'run', args: { hashes: ['0xb10c'] } });
    expect(parsed(['blockchain'])).toMatchObject({ kind: 'run', args: { hashes: ['blockchain'] } });
  });

  test('txray block: its block, latest where none is given', () => {
    expect(parsed(['block', '19000000', '--json'])).toMatchObject({ kind: 'run', args: { block: '19000000', options: { json: true } } });
    expect(parsed(['block'])).toMatchObject({ kind: 'run', args: { block: 'latest' } });
  });

  test('txray debug: the hash, --at and the node\'s options', () => {
    expect(parsed(['debug', H, '--at', 'failure', '--json', '--timeout', '5', '--debug', '--no-project-abis'])).toEqual({ kind: 'debug', args: { hash: H, at: 'failure', json: true, timeout: '5', debug: true, projectAbis: false } });
  });

  test('txray debug call: txray call\'s words and options, and --at as its own option (also --at=…)', () => {
    expect(parsed(['debug', 'call', A, 'f()', '--at=step:3', '--json', '--from', A])).toMatchObject({ kind: 'debug call', args: { at: 'step:3', call: { hashes: [], call: { words: [A, 'f()'], options: { json: true, from: A } } } } });
    expect(parsed(['debug', 'call', A, '--at', 'failure'])).toMatchObject({ kind: 'debug call', args: { at: 'failure' } });
  });

  test('txray replay: the file, and the view options given as words again (the last of --color/--no-color)', () => {
    expect(parsed(['replay', 'r.json', '--color', '--json', '--no-color', '--html', 'x.html', '-q', '--gas-out=g.txt'])).toEqual({ kind: 'replay', file: 'r.json', view: ['--json', '--no-color', '--gas-out', 'g.txt', '--quiet', '--html', 'x.html'] });
    expect(parsed(['replay', 'r.json'])).toEqual({ kind: 'replay', file: 'r.json', view: [] });
  });

  test('txray completions: its shell', () => {
    expect(parsed(['completions', 'zsh'])).toEqual({ kind: 'completions', shell: 'zsh' });
  });

  test('help: the lookup\'s lists no subcommand; txray debug call\'s names itself and --at', () => {
    const root = parsed(['--help']);
    expect(root.kind === 'help' && root.text.startsWith('Usage: txray [options] [hashes...]\n')).toBe(true);
    expect(root.kind === 'help' && root.text.includes('Commands:')).toBe(false);
    const debugCall = parsed(['debug', 'call', '--help']);
    expect(debugCall.kind === 'help' && debugCall.text.includes('Usage: txray debug call [options] [words...]')).toBe(true);
    expect(debugCall.kind === 'help' && /^ {2}--at <where>/m.test(debugCall.text)).toBe(true);
  });

  test('`help` is a word like any other, not a command: the lookup\'s hash', () => {
    expect(parsed(['help'])).toMatchObject({ kind: 'run', args: { hashes: ['help'] } });
  });
});

describe('the node\'s options are declared once: txray debug takes the lookup\'s, with their defaults', () => {
  const option = (cmd: Command, long: string) => cmd.options.find((o) => o.long === long);
  const lookup = createProgram({ writeOut: () => undefined }, () => undefined);
  const debug = createDebugProgram({ writeOut: () => undefined }, () => undefined);
  test.each(['--rpc-url', '--timeout', '--header', '--max-response-mb'])('%s', (long) => {
    const [a, b] = [option(lookup, long), option(debug, long)];
    expect(b?.flags).toBe(a?.flags);
    expect(b?.required).toBe(true);
  });

  test('the defaults said are parseOptions\' constants', () => {
    for (const cmd of [lookup, debug, createCallProgram({ writeOut: () => undefined }, () => undefined)]) {
      expect(option(cmd, '--timeout')?.description).toContain(`(default: ${DEFAULT_TIMEOUT_S})`);
      expect(option(cmd, '--max-response-mb')?.description).toContain(`(default: ${DEFAULT_MAX_RESPONSE_MB})`);
    }
  });

  test('-H repeats in txray debug as in the lookup', () => {
    expect(parseCommandLine(['debug', H, '-H', 'A: 1', '-H', 'B: 2'], newSeen())).toMatchObject({ kind: 'debug', args: { header: ['A: 1', 'B: 2'] } });
  });
});

describe('usage errors: one line, exit 2, the door and its --json noted for the failure\'s document', () => {
  test.each([
    [['--frobnicate'], 'lookup', false, "unknown option '--frobnicate'; see txray --help."],
    [[H, '--json', '--frobnicate'], 'lookup', true, "unknown option '--frobnicate'; see txray --help."],
    [[H, '--timeout'], 'lookup', false, "option '--timeout <seconds>' argument missing; see txray --help."],
    [[], 'lookup', false, 'missing the transaction hash; see txray --help.'],
    [['blok', '27'], 'lookup', false, "unknown command 'blok' (Did you mean block?); see txray --help."],
    [['replya', 'run.json', '--json'], 'lookup', true, "unknown command 'replya' (Did you mean replay?); see txray --help."],
    [['-r', 'http://a:1', 'dbug', H], 'lookup', false, "unknown command 'dbug' (Did you mean debug?); see txray --help."],
    [['call', A, '--frm', A], 'call', false, "unknown option '--frm' (Did you mean --from?); see txray call --help."],
    [['call', '--version'], 'call', false, "unknown option '--version'; see txray call --help."],
    [['block', '--state', '--json'], 'block', true, "unknown option '--state'; see txray block --help."],
    [['block', '1', '2', '--json'], 'block', true, 'txray block takes one block, and 2 were given (1 2); see txray block --help.'],
    [['debug', '--json'], 'debug', true, "missing required argument 'hash'; see txray debug --help."],
    [['debug', H, '--json', '--record', 'x'], 'debug', true, 'txray debug takes no --record: a recording replays a lookup, a call or a block (txray <hash> --record <file>), not the debugger.'],
    [['debug', H, '--record=x'], 'debug', false, 'txray debug takes no --record: a recording replays a lookup, a call or a block (txray <hash> --record <file>), not the debugger.'],
    [['debug', 'call', A, '--json', '--at'], 'debug', true, "option '--at <where>' argument missing; see txray debug call --help."],
    [['debug', 'call', A, '--frob'], 'debug', false, "unknown option '--frob' (Did you mean --from?); see txray debug call --help."],
    [['replay'], 'replay', false, 'txray replay needs the file a --record wrote; see txray replay --help.'],
    [['replay', '--json', '--rpc-url', 'x'], 'replay', true, "txray replay takes a recording and view options, not '--rpc-url'; see txray replay --help."],
    [['replay', 'a', 'b'], 'replay', false, "txray replay takes a recording and view options, not 'b'; see txray replay --help."],
    [['replay', 'a', '--html'], 'replay', false, '--html needs a value; see txray replay --help.'],
    [['completions', 'bash', 'zsh'], 'completions', false, 'txray completions takes one shell: bash, zsh or fish.'],
  ])('%j', (argv, door, json, message) => {
    const seen = newSeen();
    let thrown: unknown;
    try {
      parseCommandLine(argv, seen);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(UsageError);
    expect([exitCodeForError(thrown), (thrown as Error).message]).toEqual([2, message]);
    expect(seen).toMatchObject({ door, json });
  });

  test.each([
    [['debug', H, '--frobnicate', '--json'], { schemaVersion: 1, hash: H, error: { code: 'usage', message: "unknown option '--frobnicate'; see txray debug --help." } }],
    [['block', '1', '2', '--json'], { block: null, transactions: [], error: { code: 'usage' } }],
    [[H, '--frobnicate', '--json'], { hash: H, status: 'error', error: { code: 'usage' } }],
    [['replay', '--json'], { hash: null, status: 'error', error: { code: 'usage', message: 'txray replay needs the file a --record wrote; see txray replay --help.' } }],
  ])('main %j: exit 2, one line on stderr, the door\'s own document on stdout', async (argv, document) => {
    const { io, text } = fakeIo({});
    expect(await main(argv, io)).toBe(2);
    expect(text().err.split('\n')).toHaveLength(2);
    expect(JSON.parse(text().out)).toMatchObject(document);
  });
});

describe('the front door: from one parse, the parts', () => {
  const opener = () => {
    const { io } = fakeIo({});
    const log = new RunLog(new SafeWriter(io.stderr), false);
    return { doors: new DoorOpener({ io, out: new SafeWriter(io.stdout), log }), log, io };
  };

  test('the options once; the client made once, when first asked; the log takes --debug and the secrets', async () => {
    const { doors, log, io } = opener();
    const line = parseCommandLine([H, '-r', 'http://127.0.0.1:9', '--debug', '-H', 'Authorization: Bearer s3cr3t-token'], newSeen());
    if (line.kind !== 'run') throw new Error(`parsed as ${line.kind}`);
    const door = await doors.open((await readOptions(line.args, io)).opts);
    expect([log.debugOn, log.scrubbed('said: Bearer s3cr3t-token')]).toEqual([true, 'said: ***']);
    expect(door.opts.command).toEqual({ kind: 'lookup', inputs: [{ kind: 'hash', text: H, hash: H }] });
    const first = door.connect();
    expect(door.connect()).toBe(first);
    expect((await first).where).toBe('http://127.0.0.1:9');
    expect(door.decoder()).toBe(door.decoder());
    expect(door.recorder).toBeNull();
    await doors.close();
  });

  test('--record: the recording seam is the door\'s (the recorder is there)', async () => {
    const { doors, io } = opener();
    const line = parseCommandLine(['call', A, 'f()', '-r', 'http://127.0.0.1:9'], newSeen());
    if (line.kind !== 'run') throw new Error(`parsed as ${line.kind}`);
    const door = await doors.open((await readOptions(line.args, io)).opts, { record: true });
    expect(door.recorder).not.toBeNull();
    expect(door.opts.command.kind).toBe('call');
    await doors.close();
  });
});
