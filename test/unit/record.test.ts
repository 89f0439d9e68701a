/**
 * The parts of --record and replay that need no node: what a recorded command line keeps, how a
 * service's request is keyed without its key, the checks a hostile recording meets, and how a replay
 * answers a request asked again (in the recorded order, the last answer once they run out).
 */
import { describe, expect, test } from 'vitest';
import { newSeen, parseCommandLine } from '../../src/cli/commandLine.js';
import { RpcFailure } from '../../src/errors.js';
import { answerKeys } from '../../src/record/answerKeys.js';
import { checkRecording } from '../../src/record/checkRecording.js';
import { createRecorder } from '../../src/record/createRecorder.js';
import { createReplayer } from '../../src/record/createReplayer.js';
import { recordedArgv } from '../../src/record/recordedArgv.js';
import { RECORDING_FORMAT, RECORDING_VERSION, type Recording } from '../../src/record/types.js';

const deadline = new AbortController().signal;

function recording(over: Partial<Recording> = {}): Recording {
  return {
    format: RECORDING_FORMAT,
    version: RECORDING_VERSION,
    txray: 'test',
    recorded: '2026-01-01T00:00:00.000Z',
    endpoint: 'http://127.0.0.1:8545',
    chainId: null,
    argv: [`0x${'ab'.repeat(32)}`],
    stdin: null,
    made: { state: false, online: false, etherscan: false },
    rpc: [],
    http: [],
    disk: null,
    ...over,
  };
}

/** The command line as --record keeps it, from the one parse the run makes of `argv`. */
function recorded(argv: string[], codeAt?: (address: string) => string | undefined): string[] {
  const line = parseCommandLine(argv, newSeen());
  if (line.kind !== 'run') throw new Error(`not a run: ${line.kind}`);
  return recordedArgv(line.words, codeAt);
}

describe('a recorded command line', () => {
  test('keeps no secret and no option whose result the file holds, in every form commander takes', () => {
    const argv = ['0xabc', '-r', 'http://u:p@h/v2/KEY', '-H', 'Authorization: Bearer A', '--header=X-Key: B', '-HX-Other: C', '--rpc-url=http://h/KEY2', '--record', 'f.rec', '--abi', 'a.json', '--labels-file=l.json', '--labels', '0x1:N', '--no-project-abis', '--json', '--state'];
    expect(recorded(argv)).toEqual(['0xabc', '--json', '--state']);
  });

  test("keeps a service's URL without a key in its query", () => {
    expect(recorded(['0xabc', '--etherscan-url', 'https://x.example/api?apikey=SECRET&v=2', '--sourcify-url=https://s.example/server?key=K'])).toEqual(['0xabc', '--etherscan-url', 'https://x.example/api?v=2', '--sourcify-url', 'https://s.example/server']);
  });

  test('keeps an --override-code that named a file or a contract as the code the run used there, in both forms; hex as given', () => {
    const used = { '0x00000000000000000000000000000000000000aa': '0x6001', '0x00000000000000000000000000000000000000bb': '0x6002' };
    const codeAt = (a: string): string | undefined => used[a as keyof typeof used];
    const argv = ['call', '--tx', '0xabc', '--override-code', '0x00000000000000000000000000000000000000AA:out/Bank.sol/Bank.json', '--override-code=0x00000000000000000000000000000000000000bb:Bank', '--override-code', '0x00000000000000000000000000000000000000cc:0x60'];
    expect(recorded(argv, codeAt)).toEqual(['call', '--tx', '0xabc', '--override-code', '0x00000000000000000000000000000000000000AA:0x6001', '--override-code', '0x00000000000000000000000000000000000000bb:0x6002', '--override-code', '0x00000000000000000000000000000000000000cc:0x60']);
  });

  test('keeps what follows -- as it is', () => {
    expect(recorded(['call', '0xabc', 'f(int256)', '--', '-H'])).toEqual(['call', '0xabc', 'f(int256)', '--', '-H']);
  });

  test('drops a header given in a group of short options, as commander reads it', () => {
    expect(recorded(['0xabc', '-qHX-Key: S', '--wait'])).toEqual(['0xabc', '--quiet', '--wait']);
  });

  test('reads back as the run read it: the operands, and each option with its value', () => {
    const argv = ['call', '0x0000000000000000000000000000000000000001', 'f(int256)', '-5', '--from', '-x', '--value=1ether', '--no-color'];
    const again = parseCommandLine(recorded(argv), newSeen());
    const first = parseCommandLine(argv, newSeen());
    expect(again.kind === 'run' && again.args).toEqual(first.kind === 'run' && first.args);
  });
});

describe("a service's request is found again without its key", () => {
  test.each([
    ['https://api.etherscan.io/v2/api?chainid=1&module=contract&apikey=SECRET&address=0x1', 'https://api.etherscan.io/v2/api?chainid=1&module=contract&address=0x1'],
    ['https://x.example/lookup?function=0xa9059cbb&api_key=S&token=T', 'https://x.example/lookup?function=0xa9059cbb'],
    ['https://u:p@x.example:8443/v2/contract/1/0xab', 'https://x.example:8443/v2/contract/1/0xab'],
  ])('%s', (url, key) => expect(answerKeys.http(new URL(url))).toBe(key));
});

describe('a hostile recording is refused with a reason', () => {
  test('a well-formed one is taken', () => {
    expect(checkRecording(recording())).toMatchObject({ format: RECORDING_FORMAT });
    const outline = { nodeType: 'SourceUnit', nodes: [] };
    expect(checkRecording(recording({ disk: { labels: [], artifacts: [{ name: 'A', source: 'project', abi: [], debug: { runtime: { map: '', viaIR: false, count: 1, files: {}, asts: { '0': outline, '1': null } } } }] } }))).toMatchObject({ format: RECORDING_FORMAT });
  });

  test.each<[string, unknown, RegExp]>([
    ['a replay of a replay (it would never end)', { ...recording(), argv: ['replay', 'x.rec'] }, /not one txray records/],
    ['the debugger (a replay of it would ask the node and open the terminal)', { ...recording(), argv: ['debug', 'call', '0x0000000000000000000000000000000000000001', '--at', 'step:1'] }, /not one txray records/],
    ['an endpoint with a path', { ...recording(), endpoint: 'http://h:1/v2/key' }, /scheme:\/\/host:port/],
    ['a newer version', { ...recording(), version: 2 }, /newer txray/],
    ['an answer that is both a result and an error', recording({ rpc: [['["eth_chainId",[]]', [{ r: '0x1', e: 'x' } as never]]] }), /unknown shape/],
    ['a failure of a kind txray does not have', recording({ rpc: [['k', [{ f: { kind: 'boom', message: 'x' } } as never]]] }), /unknown shape/],
    ['an ABI item whose name is markup', recording({ disk: { labels: [], artifacts: [{ name: 'A', source: 'project', abi: [{ type: 'function', name: '<b>x</b>', inputs: [], outputs: [], stateMutability: 'view' }] }] } }), /artifact/],
    ['a storage layout of another shape', recording({ disk: { labels: [], artifacts: [{ name: 'A', source: 'project', abi: [], storageLayout: { storage: 'x' } as never }] } }), /artifact/],
    ['a label that is no address', recording({ disk: { labels: [['0x12', 'N']], artifacts: [] } }), /label/],
    ['an AST outline that is not an object', recording({ disk: { labels: [], artifacts: [{ name: 'A', source: 'project', abi: [], debug: { runtime: { map: '', viaIR: false, count: 1, files: {}, asts: { '0': 'x' } } } }] } }), /artifact/],
    ['a status that is no HTTP status', recording({ http: [['u', [{ status: 42, json: null, retryAfterMs: null }]]] }), /unknown shape/],
  ])('%s', (_what, doc, why) => {
    const checked = checkRecording(doc);
    expect(typeof checked).toBe('string');
    expect(checked).toMatch(why);
  });
});

describe('a replay answers as the recorded run was answered', () => {
  const key = answerKeys.rpc('eth_getTransactionReceipt', ['0xh']);

  test("a key's answers in the order they came, the last one again once they run out (--wait's polls)", async () => {
    const r = createReplayer(recording({ rpc: [[key, [{ r: null }, { r: { status: '0x1' } }]]] }));
    expect(await r.client.call('eth_getTransactionReceipt', ['0xh'], deadline)).toBeNull();
    expect(await r.client.call('eth_getTransactionReceipt', ['0xh'], deadline)).toEqual({ status: '0x1' });
    expect(await r.client.call('eth_getTransactionReceipt', ['0xh'], deadline)).toEqual({ status: '0x1' });
    expect(r.missing).toEqual([]);
  });

  test('a batch the node refused, then the same calls one by one: the refusal, then the answers', async () => {
    const refused = { f: { kind: 'protocol' as const, message: 'batch of 1 eth_getCode: the node did not answer the batch with a batch.' } };
    const code = answerKeys.rpc('eth_getCode', ['0xa', 'latest']);
    const r = createReplayer(recording({ rpc: [[code, [refused, { r: '0x60' }]]] }));
    await expect(r.client.batch([{ method: 'eth_getCode', params: ['0xa', 'latest'] }], deadline)).rejects.toMatchObject({ kind: 'protocol' });
    expect(await r.client.call('eth_getCode', ['0xa', 'latest'], deadline)).toBe('0x60');
  });

  test("the node's errors come back as they came: inside a batch answer, and thrown with their code", async () => {
    const r = createReplayer(recording({ rpc: [[key, [{ e: 'execution reverted' }]], ['["eth_call",[]]', [{ f: { kind: 'rpc-error', message: 'eth_call: the node answered error 3: execution reverted', code: 3, data: '0x08c379a0' } }]]] }));
    expect(await r.client.batch([{ method: 'eth_getTransactionReceipt', params: ['0xh'] }], deadline)).toEqual([{ error: 'execution reverted' }]);
    const err = await r.client.call('eth_call', [], deadline).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RpcFailure);
    expect(err).toMatchObject({ kind: 'rpc-error', rpcCode: 3, data: '0x08c379a0' });
  });

  test('an error the node answered a call asked alone is, asked in a batch by the replay, that call\'s error in the node\'s words', async () => {
    const r = createReplayer(recording({ rpc: [['["eth_call",[]]', [{ f: { kind: 'rpc-error', message: 'eth_call: the node answered error 3: execution reverted', code: 3 } }]]] }));
    expect(await r.client.batch([{ method: 'eth_call', params: [] }], deadline)).toEqual([{ error: 'execution reverted' }]);
  });

  test('a request the recording lacks fails and is noted (main then prints only the line naming it)', async () => {
    const r = createReplayer(recording());
    await expect(r.client.call('debug_traceTransaction', ['0xh'], deadline)).rejects.toBeInstanceOf(RpcFailure);
    await expect(r.online(new URL('https://sourcify.dev/server/v2/contract/1/0xab'), deadline)).rejects.toThrow();
    expect(r.missing).toEqual(['debug_traceTransaction', '--online https://sourcify.dev']);
  });
});

describe('recording the node client', () => {
  test('a request still on its way when the run closes its client is not recorded: its failure is the teardown, not an answer', async () => {
    const pending: Array<(err: Error) => void> = [];
    const inner = {
      where: 'http://127.0.0.1:8545',
      call: async (method: string) => {
        if (method === 'eth_chainId') return '0x1';
        return new Promise((_, reject) => pending.push(reject));
      },
      batch: async () => new Promise<never>((_, reject) => pending.push(reject)),
      close: async () => {
        for (const reject of pending) reject(new RpcFailure('unreachable', 'cannot talk to http://127.0.0.1:8545 (UND_ERR_DESTROYED); check the URL and the network.'));
      },
    };
    const recorder = createRecorder([], null);
    const client = recorder.client(inner);
    expect(await client.call('eth_chainId', [], deadline)).toBe('0x1');
    const late = client.call('eth_createAccessList', [{}], deadline, true).catch((e: unknown) => e);
    const lateBatch = client.batch([{ method: 'eth_getBalance', params: ['0x01', 'latest'] }], deadline).catch((e: unknown) => e);
    await client.close();
    expect(await late).toBeInstanceOf(RpcFailure);
    expect(await lateBatch).toBeInstanceOf(RpcFailure);
    const { rpc: _rpc, http: _http, disk: _disk, chainId: _chainId, ...meta } = recording();
    const rec = recorder.recording(meta);
    expect(rec.rpc.map(([key]) => key)).toEqual([answerKeys.rpc('eth_chainId', [])]);
    expect(rec.chainId).toBe(1);
  });
});
