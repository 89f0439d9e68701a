/**
 * A real mainnet transaction's recording (test/fixtures/recordings/, made by test/e2e/record.test.ts from
 * test/fixtures/real's answers) replayed in-process: no node is started, nothing is asked of the network.
 * The text is the live run's, byte for byte; the JSON view's facts are the recorded node answers'.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { main } from '../../src/cli/main.js';
import { createReplayer } from '../../src/record/createReplayer.js';
import { type Recording, RECORDING_FORMAT, RECORDING_VERSION } from '../../src/record/types.js';
import { fakeIo } from '../support/fakeIo.js';

const REC = fileURLToPath(new URL('../fixtures/recordings/mainnet-51-logs.rec', import.meta.url));
/** The signature database the build ships beside the bundle (txray's own, not the recording's). */
const SIGDB = new URL('../../dist/sigdb/', import.meta.url);
const TEXT = fileURLToPath(new URL('../fixtures/recordings/mainnet-51-logs.txt', import.meta.url));

async function replayOf(file: string, view: string[]): Promise<{ code: number; out: string; err: string }> {
  // A proxy at a closed port: were anything asked of the network, it would fail.
  const { io, text } = fakeIo({ HTTP_PROXY: 'http://127.0.0.1:9', HTTPS_PROXY: 'http://127.0.0.1:9' }, { sigdb: SIGDB });
  const code = await main(['replay', file, ...view], io);
  return { code, ...text() };
}
const replay = (view: string[]): Promise<{ code: number; out: string; err: string }> => replayOf(REC, view);

/** The node's answer to `method` as the recording holds it. */
function recorded(method: string): any {
  const doc = JSON.parse(gunzipSync(readFileSync(REC)).toString('utf8'));
  const entry = doc.rpc.find(([key]: [string]) => JSON.parse(key)[0] === method);
  return entry[1][0].r;
}

describe('a recorded real-chain lookup, replayed without a node', () => {
  test('the text view is the live run\'s, byte for byte, and stderr says where it came from', async () => {
    const r = await replay([]);
    expect(r.out).toBe(readFileSync(TEXT, 'utf8'));
    expect(r.err).toMatch(/^txray: replayed from .*mainnet-51-logs\.rec, recorded \d{4}-/);
    expect(r.code).toBe(recorded('eth_getTransactionReceipt').status === '0x1' ? 0 : 1);
  });

  test('the JSON view carries the recorded transaction and receipt', async () => {
    const r = await replay(['--json']);
    const doc = JSON.parse(r.out);
    const receipt = recorded('eth_getTransactionReceipt');
    expect(doc.hash).toBe(receipt.transactionHash);
    expect(doc.status).toBe(receipt.status === '0x1' ? 'success' : 'reverted');
    expect(doc.logs).toHaveLength(receipt.logs.length);
    expect(doc.transaction.from.toLowerCase()).toBe(recorded('eth_getTransactionByHash').from.toLowerCase());
  });
});

describe("a recorded command line is read as commander reads it", () => {
  const dir = mkdtempSync(join(tmpdir(), 'txray-replay-'));
  /** The committed recording with another command line. */
  function withArgv(name: string, argv: string[]): string {
    const doc = JSON.parse(gunzipSync(readFileSync(REC)).toString('utf8'));
    const file = join(dir, name);
    writeFileSync(file, JSON.stringify({ ...doc, argv }));
    return file;
  }

  test('its files to write (--record, --html <file>, --gas-out) and --debug, in every form, are never replayed: no file is written', async () => {
    const hash = JSON.parse(gunzipSync(readFileSync(REC)).toString('utf8')).argv[0];
    const written = ['r.rec', 'p.html', 'g.txt'].map((f) => join(dir, f));
    const file = withArgv('files.rec', [hash, `--record=${written[0]}`, '--html', written[1]!, `--gas-out=${written[2]}`, '--no-color', '--debug']);
    const { io, text } = fakeIo({ HTTP_PROXY: 'http://127.0.0.1:9', HTTPS_PROXY: 'http://127.0.0.1:9' }, { sigdb: SIGDB });
    await main(['replay', file], io);
    expect(text().out).toBe(readFileSync(TEXT, 'utf8'));
    expect(text().err).not.toMatch(/debug:/);
    expect(written.filter((f) => existsSync(f))).toEqual([]);
  });

  test('its view (--json, -q, …) is replayed where the replay gives no view option, and stderr names it; one given sets it aside', async () => {
    const hash = JSON.parse(gunzipSync(readFileSync(REC)).toString('utf8')).argv[0];
    const file = withArgv('views.rec', [hash, '--json', '-q']);
    const quiet = await replayOf(file, []);
    expect(quiet.out).toBe('');
    expect(quiet.err).toMatch(/^txray: replayed from .*views\.rec, recorded \S+Z, in its recorded view --json --quiet\n/);
    const json = await replayOf(withArgv('json.rec', [hash, '--json']), ['--debug']);
    expect(JSON.parse(json.out).hash).toBe(recorded('eth_getTransactionReceipt').transactionHash);
    const given = await replayOf(file, ['--json']);
    expect(JSON.parse(given.out).hash).toBe(recorded('eth_getTransactionReceipt').transactionHash);
    expect(given.err).not.toMatch(/recorded view/);
  });

  test('one that is no lookup, call or block (a command hidden behind an option) is refused before anything runs', async () => {
    const file = withArgv('hidden.rec', ['--json', 'replay', join(dir, 'views.rec')]);
    const { io, text } = fakeIo({});
    expect(await main(['replay', file], io)).toBe(2);
    expect(text().err).toMatch(/^txray: replay .*hidden\.rec: its command line is not one txray records; give a file that txray --record wrote\.\n$/);
  });
});

describe('asks a recording may lack', () => {
  test('a speculative ask the recording lacks (a prefetch a later txray added) is answered with an error, not named missing; a needed one is named missing', async () => {
    const rec: Recording = {
      format: RECORDING_FORMAT,
      version: RECORDING_VERSION,
      txray: 'test',
      recorded: '2026-01-01T00:00:00.000Z',
      endpoint: 'http://127.0.0.1:1',
      chainId: 1,
      argv: [],
      stdin: null,
      made: { state: false, online: false, etherscan: false },
      rpc: [[JSON.stringify(['eth_chainId', []]), [{ r: '0x1' }]]],
      http: [],
      disk: null,
    };
    const replayer = createReplayer(rec);
    const deadline = new AbortController().signal;
    const header = ['eth_getBlockByNumber', ['0x1', false]] as const;
    await expect(replayer.client.call(header[0], header[1], deadline, true)).rejects.toThrow(/not in the recording/);
    expect(await replayer.client.batch([{ method: 'eth_chainId', params: [] }, { method: 'eth_getStorageAt', params: ['0x01', '0x0', '0x1'], speculative: true }], deadline)).toEqual([{ result: '0x1' }, { error: 'not in the recording' }]);
    expect(replayer.missing).toEqual([]);
    await expect(replayer.client.call(header[0], header[1], deadline)).rejects.toThrow(/holds no answer/);
    expect(replayer.missing).toEqual(['eth_getBlockByNumber']);
  });
});
