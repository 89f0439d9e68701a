/**
 * Where in the source a transaction failed: a multi-file project (test/fixtures/srcloc) compiled in the
 * set-up with solc from npm, written in Foundry's and Hardhat's layouts, deployed on a real anvil; each
 * failed frame is placed at its statement, with the line's code.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeDeployData, encodeFunctionData, parseGwei, type Abi } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startAnvil } from '../../scripts/lib/anvil.mjs';
import { DEV, receipt, send } from '../../scripts/lib/scenarios.mjs';
import { jsonOf, runTxray } from '../support/runTxray.js';
import { schemaErrors } from '../support/schema.js';
import { type Compiled, FIXTURE, writeFoundryProject, writeHardhatProject } from '../support/sourceProject.js';

let anvil: Awaited<ReturnType<typeof startAnvil>>;
let compiled: Record<string, Compiled>;
const foundry = mkdtempSync(join(tmpdir(), 'txray-srcloc-forge-'));
const hardhat = mkdtempSync(join(tmpdir(), 'txray-srcloc-hh-'));
const viaIR = mkdtempSync(join(tmpdir(), 'txray-srcloc-ir-'));
const stale = mkdtempSync(join(tmpdir(), 'txray-srcloc-stale-'));
const unoptimized = mkdtempSync(join(tmpdir(), 'txray-srcloc-plain-'));
const edited = mkdtempSync(join(tmpdir(), 'txray-srcloc-edited-'));
const tx: Record<string, string> = {};
/** The same failures from Foundry's default build (the optimizer off). */
const plainTx: Record<string, string> = {};
let vault: string;
let inner: string;
let forwarder: string;
let meter: string;

const data = (name: string, fn: string, args: unknown[] = []): string => encodeFunctionData({ abi: compiled[name]!.abi as Abi, functionName: fn, args });
const deploy = async (name: string, args: unknown[] = []): Promise<string> => {
  const hash = await send(anvil.rpc, { data: encodeDeployData({ abi: compiled[name]!.abi as Abi, bytecode: compiled[name]!.bytecode as `0x${string}`, args }) });
  return (await receipt(anvil.rpc, hash)).contractAddress;
};
/** A transaction with a gas limit (no estimate: a failing one is still sent and mined). */
const mined = async (to: string, input: string, gas = '0x100000'): Promise<string> => {
  const hash = await send(anvil.rpc, { to, data: input, gas });
  await receipt(anvil.rpc, hash);
  return hash;
};

/**
 * An EIP-7702 transaction to `to` (another account's code delegated to Inner on the way): its
 * authorization carries a signature that only the node's own transaction object holds.
 */
const sendSetCode = async (to: string, input: string): Promise<string> => {
  const chainId = Number(await anvil.rpc('eth_chainId'));
  const authorization = await privateKeyToAccount(DEV.otherKey as `0x${string}`).signAuthorization({ chainId, contractAddress: inner as `0x${string}`, nonce: Number(await anvil.rpc('eth_getTransactionCount', [DEV.other, 'pending'])) });
  const raw = await privateKeyToAccount(DEV.senderKey as `0x${string}`).signTransaction({
    type: 'eip7702',
    chainId,
    nonce: Number(await anvil.rpc('eth_getTransactionCount', [DEV.sender, 'pending'])),
    to: to as `0x${string}`,
    data: input as `0x${string}`,
    gas: 0x100000n,
    maxFeePerGas: parseGwei('20'),
    maxPriorityFeePerGas: parseGwei('1'),
    authorizationList: [authorization],
  });
  const hash = await anvil.rpc('eth_sendRawTransaction', [raw]);
  await receipt(anvil.rpc, hash);
  return hash;
};

beforeAll(async () => {
  compiled = writeFoundryProject(foundry);
  writeHardhatProject(hardhat);
  const ir = writeFoundryProject(viaIR, { viaIR: true });
  writeFoundryProject(stale);
  writeFoundryProject(edited);
  // Foundry's default: the optimizer off.
  const plain = writeFoundryProject(unoptimized, { optimizer: false });
  anvil = await startAnvil();
  vault = await deploy('Vault');
  inner = await deploy('Inner');
  forwarder = await deploy('Forwarder', [vault]);
  meter = await deploy('Meter');
  tx.withdraw = await mined(vault, data('Vault', 'withdraw', [5n]));
  tx.small = await mined(vault, data('Vault', 'small', [3n]));
  tx.bare = await mined(vault, data('Vault', 'bare', [3n]));
  tx.pick = await mined(vault, data('Vault', 'pick', [7n]));
  tx.accented = await mined(vault, data('Vault', 'accented', [2n]));
  tx.relay = await mined(vault, data('Vault', 'relay', [inner, 1n]));
  tx.spin = await mined(vault, data('Vault', 'spin', [100000n]), '0x30000');
  tx.proxied = await mined(forwarder, data('Vault', 'small', [3n]));
  tx.ok = await mined(vault, data('Vault', 'small', [30n]));
  tx.ratio = await mined(meter, data('Meter', 'ratio', [0n]));
  tx.capped = await mined(meter, data('Meter', 'capped', [600n]));
  tx.retry = await mined(meter, data('Meter', 'retry', [meter]));
  // The via-IR build's own Vault: its code is not the optimized build's.
  const irVault = (await receipt(anvil.rpc, await send(anvil.rpc, { data: encodeDeployData({ abi: ir.Vault!.abi as Abi, bytecode: ir.Vault!.bytecode as `0x${string}` }) }))).contractAddress;
  tx.irSmall = await mined(irVault, data('Vault', 'small', [3n]));
  tx.irWithdraw = await mined(irVault, data('Vault', 'withdraw', [5n]));
  const irMeter = (await receipt(anvil.rpc, await send(anvil.rpc, { data: encodeDeployData({ abi: ir.Meter!.abi as Abi, bytecode: ir.Meter!.bytecode as `0x${string}` }) }))).contractAddress;
  tx.irLow = await mined(irMeter, data('Meter', 'low', [3n]));
  tx.irHigh = await mined(irMeter, data('Meter', 'high', [3n]));
  tx.setCode = await sendSetCode(vault, data('Vault', 'small', [3n]));
  // A Teller whose Ledger fails two internal calls deep, from each build.
  const from = (build: Record<string, Compiled>) => async (name: string, args: unknown[] = []) => (await receipt(anvil.rpc, await send(anvil.rpc, { data: encodeDeployData({ abi: build[name]!.abi as Abi, bytecode: build[name]!.bytecode as `0x${string}`, args }) }))).contractAddress;
  for (const [key, build] of [['teller', compiled], ['tellerPlain', plain]] as const) tx[key] = await mined(await from(build)('Teller', [await from(build)('Ledger')]), data('Teller', 'withdraw', [5n]));
  const plainVault = await from(plain)('Vault');
  const plainMeter = await from(plain)('Meter');
  for (const [key, fn, arg] of [['withdraw', 'withdraw', 5n], ['small', 'small', 3n], ['bare', 'bare', 3n], ['pick', 'pick', 7n], ['accented', 'accented', 2n]] as const) plainTx[key] = await mined(plainVault, data('Vault', fn, [arg]));
  plainTx.relay = await mined(plainVault, data('Vault', 'relay', [await from(plain)('Inner'), 1n]));
  plainTx.spin = await mined(plainVault, data('Vault', 'spin', [100000n]), '0x30000');
  plainTx.proxied = await mined(await from(plain)('Forwarder', [plainVault]), data('Vault', 'small', [3n]));
  for (const [key, fn, arg] of [['ratio', 'ratio', 0n], ['capped', 'capped', 600n], ['retry', 'retry', plainMeter]] as const) plainTx[key] = await mined(plainMeter, data('Meter', fn, [arg]));
  tx.picky = await send(anvil.rpc, { data: encodeDeployData({ abi: compiled.Picky!.abi as Abi, bytecode: compiled.Picky!.bytecode as `0x${string}`, args: [0n] }), gas: '0x100000' });
  await receipt(anvil.rpc, tx.picky);
}, 120_000);
afterAll(async () => {
  await anvil?.stop();
});

const run = (args: string[], cwd = foundry) => runTxray([...args, '-r', anvil.url], {}, undefined, cwd);

/** The "Why it failed" section's place lines: "at …", the code line, "called from …". */
const placeLines = (stdout: string): string[] => stdout.split('\n').filter((l) => /^ {2}(at |called from )| │ /.test(l)).map((l) => l.trimEnd());

/** Each failure of the project and where it is placed: the "at" line, the code line, the "called from" lines. */
const PLACES: Array<[string, string, string[]]> = [
  ['require with a message', 'small', ['  at src/Vault.sol:23:9', '     23 │         require(x > 10, "too small");']],
  ['require without a message', 'bare', ['  at src/Vault.sol:28:9', '     28 │         require(x > 10);']],
  ['a Panic (index out of bounds) in the compiler\'s checks', 'pick', ['  at src/Vault.sol:35:16', '     35 │         return list[i];']],
  ['a custom error in a library in another file, with the call site', 'withdraw', ['  at src/lib/Balances.sol:11:20', '     11 │             revert InsufficientBalance(who, have, want);', '  called from src/Vault.sol:18:9  withdraw(uint256)']],
  ['a non-ASCII comment above the failing line (offsets are UTF-8 bytes)', 'accented', ['  at src/Vault.sol:40:9', '     40 │         require(x == 1, "not one");']],
  ['out of gas in a loop', 'spin', ['  at src/Vault.sol:50:13', '     50 │             total += i;']],
  ['a reverting constructor (the creation map)', 'picky', ['  at src/Picky.sol:8:9', '     8 │         require(s != 0, "zero seed");']],
  ['an inner call that reverts and the outer frame that re-reverts: both placed', 'relay', ['  at src/Inner.sol:6:9', '     6 │         require(code == 0, "inner says no");', '  called from src/Vault.sol:45:18  relay(address,uint256)']],
  ['a Panic in a contract whose library reverts with one word too (a shared revert tail): the division, not the library', 'ratio', ['  at src/Meter.sol:22:17', '     22 │         level = 100 / x;']],
  ['that library\'s revert itself', 'capped', ['  at src/lib/Limits.sol:9:29', '     9 │         if (x > 500) revert OverCap(x);', '  called from src/Meter.sol:27:9  capped(uint256)']],
  ['a require after a call that reverted and was caught', 'retry', ['  at src/Meter.sol:33:9', '     33 │         require(level == 12345, "after retry");']],
  ['an EIP-7702 transaction (replayed as the node gave it, its authorization\'s signature with it)', 'setCode', ['  at src/Vault.sol:23:9', '     23 │         require(x > 10, "too small");']],
  ['a proxy: the implementation\'s file, then the proxy\'s', 'proxied', ['  at src/Vault.sol:23:9', '     23 │         require(x > 10, "too small");', '  called from src/Forwarder.sol:16:17  small(uint256)']],
];

describe('a Foundry project (optimized, multi-file)', () => {
  test.each(PLACES)('%s', async (_what, key, expected) => {
    const r = await run([tx[key]!]);
    expect(r.code).toBe(1);
    expect(placeLines(r.stdout)).toEqual(expected);
    // The failed line of the call tree carries the short form.
    expect(r.stdout).toContain(`✗`);
    expect(r.stdout).toMatch(new RegExp(`at ${expected[0]!.slice(5).replace(/:\d+$/, '').replace(/[.]/g, '\\.')}\\s*$`, 'm'));
  });

  test('optimizer off (Foundry\'s default): every case above at the same place, with the same calls that led there', async () => {
    // All but the constructor's.
    expect(Object.keys(plainTx).sort()).toEqual(PLACES.map(([, key]) => key).filter((k) => k !== 'picky' && k !== 'setCode').sort());
    for (const [what, key, expected] of PLACES.filter(([, key]) => plainTx[key] !== undefined)) expect(placeLines((await run([plainTx[key]!], unoptimized)).stdout), what).toEqual(expected);
  });

  test('--json: sourceLocation on every failed frame placed, failure.sourceLocation the origin\'s; the schema holds', async () => {
    const doc = jsonOf(await run([tx.relay!, '--json']));
    expect(schemaErrors(doc)).toBe('');
    expect(doc.calls.sourceLocation).toMatchObject({ file: 'src/Vault.sol', line: 45, column: 18, code: '        total += inner.fail(code);' });
    expect(doc.calls.children[0].sourceLocation).toMatchObject({ file: 'src/Inner.sol', line: 6, column: 9, code: '        require(code == 0, "inner says no");' });
    expect(doc.calls.children[0].sourceLocation.approximate).toBeUndefined();
    expect(doc.failure.sourceLocation).toEqual(doc.calls.children[0].sourceLocation);
    expect(doc.failure.sourceLocation.context).toEqual({ firstLine: 4, lines: ['contract Inner {', '    function fail(uint256 code) external pure returns (uint256) {', '        require(code == 0, "inner says no");', '        return code;', '    }'] });
    const accented = jsonOf(await run([tx.accented!, '--json']));
    // The column counts characters: the line above holds multi-byte ones, this one none.
    expect(accented.failure.sourceLocation).toMatchObject({ line: 40, column: 9 });
  });

  test('a successful transaction: no location anywhere, and nothing more is asked or run', async () => {
    const r = await run([tx.ok!, '--json', '--debug']);
    const doc = JSON.parse(r.stdout);
    expect(JSON.stringify(doc)).not.toContain('sourceLocation');
    expect(r.stderr).not.toMatch(/source locations|eth_createAccessList|eth_getBlockByNumber/);
  });

  test('a failure with a map costs one local run, said in --debug', async () => {
    const r = await run([tx.small!, '--debug']);
    expect(r.stderr).toMatch(/source locations: a local run of \d+ ms placed 1 of 1 failed frame/);
  });

  test('txray call of a reverting call: the same place', async () => {
    const r = await run(['call', vault, 'small(uint256)', '3']);
    expect(placeLines(r.stdout)).toEqual(['  at src/Vault.sol:23:9', '     23 │         require(x > 10, "too small");']);
  });

  test('a source file edited since the build: no location for it, never a wrong one', async () => {
    const path = join(stale, 'src', 'Vault.sol');
    writeFileSync(path, readFileSync(path, 'utf8').replace('contract Vault {', '// edited\ncontract Vault {'));
    const r = await run([tx.small!], stale);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Error: too small');
    expect(placeLines(r.stdout)).toEqual([]);
    expect(r.stderr).toContain('txray: warning: src/Vault.sol changed since the build; run forge build\n');
  });

  test('optimizer off (Foundry\'s default): the same chain of internal calls as optimized, in text and JSON', async () => {
    const chain = ['  at src/Ledger.sol:25:35', '     25 │         if (have < amount) revert Overdrawn(who, have, amount);', '  called from src/Ledger.sol:19:9', '  called from src/Ledger.sol:15:9  debit(address,uint256)', '  called from src/Teller.sol:15:9  withdraw(uint256)'];
    expect(placeLines((await run([tx.teller!])).stdout)).toEqual(chain);
    expect(placeLines((await run([tx.tellerPlain!], unoptimized)).stdout)).toEqual(chain);
    const optimized = jsonOf(await run([tx.teller!, '--json']));
    const plain = jsonOf(await run([tx.tellerPlain!, '--json'], unoptimized));
    expect(schemaErrors(plain)).toBe('');
    const lines = (doc: typeof plain) => doc.calls.children[0].calledFrom.map((l: { file: string; line: number }) => `${l.file}:${l.line}`);
    expect(lines(plain)).toEqual(['src/Ledger.sol:19', 'src/Ledger.sol:15']);
    expect(lines(optimized)).toEqual(lines(plain));
  });

  test('the origin named by contract and function, with its caller; the trace path in JSON only', async () => {
    const r = await run([tx.teller!]);
    expect(r.stdout).toMatch(/^ {2}raised in {2}Ledger\.debit, called by Teller\.withdraw$/m);
    expect(r.stdout.split('Why it failed\n')[1]!.split('\n\n')[0]).not.toMatch(/at trace \[|depth \d|\[0\]/);
    expect(jsonOf(await run([tx.teller!, '--json'])).failure.origin).toEqual([0]);
  });

  test('a file edited since the build: the places in files that still match stay, and the edited file is named (text and JSON)', async () => {
    const path = join(edited, 'src', 'Ledger.sol');
    writeFileSync(path, readFileSync(path, 'utf8').replace('contract Ledger {', '// edited\ncontract Ledger {'));
    const warning = 'src/Ledger.sol changed since the build; run forge build';
    const r = await run([tx.teller!], edited);
    expect(r.code).toBe(1);
    expect(placeLines(r.stdout)).toEqual(['  called from src/Teller.sol:15:9  withdraw(uint256)']);
    expect(r.stdout).toMatch(/call Teller::withdraw\(.*at src\/Teller\.sol:15$/m);
    expect(r.stderr).toContain(`txray: warning: ${warning}\n`);
    const doc = jsonOf(await run([tx.teller!, '--json'], edited));
    expect(doc.warnings).toContain(warning);
    expect(doc.calls.sourceLocation).toMatchObject({ file: 'src/Teller.sol', line: 15 });
    expect(doc.failure.sourceLocation).toBeUndefined();
    // An unedited file's failure says nothing of it.
    expect(jsonOf(await run([tx.small!, '--json'], edited)).warnings).not.toContain(warning);
    // The other way round: the caller's file edited, the origin's as built.
    writeFileSync(path, readFileSync(join(FIXTURE, 'src', 'Ledger.sol')));
    const teller = join(edited, 'src', 'Teller.sol');
    writeFileSync(teller, readFileSync(teller, 'utf8').replace('contract Teller {', '// edited\ncontract Teller {'));
    const other = await run([tx.teller!], edited);
    expect(placeLines(other.stdout)).toEqual(['  at src/Ledger.sol:25:35', '     25 │         if (have < amount) revert Overdrawn(who, have, amount);', '  called from src/Ledger.sol:19:9', '  called from src/Ledger.sol:15:9  debit(address,uint256)']);
    expect(other.stderr).toContain('txray: warning: src/Teller.sol changed since the build; run forge build\n');
    expect(other.stderr).not.toContain(warning);
  });

  test('via IR: the failing function\'s file and a line inside it, approximate where the map is coarse', async () => {
    for (const [key, file, first, last, exact] of [['irSmall', 'src/Vault.sol', 22, 25, 23], ['irWithdraw', 'src/lib/Balances.sol', 8, 14, 11]] as const) {
      const doc = jsonOf(await run([tx[key]!, '--json'], viaIR));
      const at = doc.failure.sourceLocation;
      expect(at.file).toBe(file);
      if (at.approximate) expect(at.line).toBeGreaterThanOrEqual(first);
      else expect(at.line).toBe(exact);
      expect(at.line).toBeLessThanOrEqual(last);
    }
    // Two functions with the same message, a later one that calls back into them: the function that ran, never a later one.
    for (const [key, first, last, exact] of [['irLow', 11, 14, 12], ['irHigh', 16, 19, 18]] as const) {
      const doc = jsonOf(await run([tx[key]!, '--json'], viaIR));
      const at = doc.failure.sourceLocation;
      expect(at.file).toBe('src/Meter.sol');
      if (!at.approximate) expect(at.line).toBe(exact);
      // Every line the frame names, its callers' too, lies in the function that ran.
      const lines = [...JSON.stringify(doc.calls).matchAll(/"line":(\d+)/g)].map((m) => Number(m[1]));
      expect(lines.every((l) => l >= first && l <= last), `${key}: ${lines.join(', ')}`).toBe(true);
    }
    // The optimized build's artifacts do not match the via-IR code: no location from them.
    expect(jsonOf(await run([tx.irSmall!, '--json'])).failure.sourceLocation).toBeUndefined();
  });
});

describe('a Hardhat project', () => {
  test('artifacts → X.dbg.json → build-info: the same places', async () => {
    for (const [key, first] of [['withdraw', '  at src/lib/Balances.sol:11:20'], ['small', '  at src/Vault.sol:23:9'], ['picky', '  at src/Picky.sol:8:9'], ['ratio', '  at src/Meter.sol:22:17']] as const) {
      const r = await run([tx[key]!], hardhat);
      expect(placeLines(r.stdout)[0]).toBe(first);
    }
  });

  test('--abi with a build-info whose source text is hostile: the code line is escaped, never run', async () => {
    const info = join(hardhat, 'artifacts', 'build-info', 'a1b2c3d4e5f60718293a4b5c6d7e8f90.json');
    const doc = JSON.parse(readFileSync(info, 'utf8'));
    const src = doc.input.sources['src/Vault.sol'];
    src.content = src.content.replace('require(x > 10, "too small");', 'require(x > 10, "too small"); // \u001b[2J\u202egotcha');
    const hostile = join(mkdtempSync(join(tmpdir(), 'txray-srcloc-abi-')), 'build-info.json');
    writeFileSync(hostile, JSON.stringify(doc));
    const empty = mkdtempSync(join(tmpdir(), 'txray-srcloc-none-'));
    const r = await run([tx.small!, '--abi', hostile], empty);
    expect(placeLines(r.stdout)).toEqual(['  at src/Vault.sol:23:9', '     23 │         require(x > 10, "too small"); // \\x1b[2J\\u{202e}gotcha']);
    expect(r.stdout).not.toContain('\u001b');
  });
});

describe('--online', () => {
  test('Sourcify\'s sources, ids and maps place the failure with no project at hand (one request per contract, cached)', async () => {
    const artifact = JSON.parse(readFileSync(join(foundry, 'out', 'Vault.sol', 'Vault.json'), 'utf8'));
    const ids = JSON.parse(readFileSync(join(foundry, 'out', 'build-info', 'b1d0000000000000000000000000000b.json'), 'utf8')).source_id_to_path as Record<string, string>;
    const sources = Object.fromEntries(Object.values(ids).map((p) => [p, { content: readFileSync(join(foundry, p), 'utf8') }]));
    const sourceIds = Object.fromEntries(Object.entries(ids).map(([id, p]) => [p, { id: Number(id) }]));
    const asked: string[] = [];
    const server = createServer((req, res) => {
      asked.push(req.url ?? '');
      const url = new URL(req.url ?? '/', 'http://x');
      res.setHeader('content-type', 'application/json');
      if (url.pathname.toLowerCase() === `/v2/contract/31337/${vault.toLowerCase()}`) {
        res.end(JSON.stringify({ match: 'exact_match', chainId: '31337', address: vault, abi: artifact.abi, compilation: { name: 'Vault', compilerSettings: {} }, proxyResolution: { isProxy: false, implementations: [] }, sources, sourceIds, runtimeBytecode: { sourceMap: artifact.deployedBytecode.sourceMap }, creationBytecode: { sourceMap: artifact.bytecode.sourceMap } }));
      } else if (url.pathname.startsWith('/signature-database')) res.end(JSON.stringify({ ok: true, result: { function: {}, event: {} } }));
      else {
        res.statusCode = 404;
        res.end('{}');
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const where = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const cache = mkdtempSync(join(tmpdir(), 'txray-srcloc-cache-'));
    const empty = mkdtempSync(join(tmpdir(), 'txray-srcloc-online-'));
    const online = () => runTxray([tx.withdraw!, '-r', anvil.url, '--online', '--sourcify-url', where, '--signatures-url', where], { TXRAY_CACHE_DIR: cache }, undefined, empty);
    try {
      const r = await online();
      expect(placeLines(r.stdout)).toEqual(['  at src/lib/Balances.sol:11:20', '     11 │             revert InsufficientBalance(who, have, want);', '  called from src/Vault.sol:18:9  withdraw(uint256)']);
      const contracts = asked.filter((u) => u.startsWith('/v2/contract/'));
      expect(contracts).toHaveLength(1);
      expect(decodeURIComponent(contracts[0]!)).toContain('fields=abi,compilation,proxyResolution,sources,sourceIds,runtimeBytecode.sourceMap,creationBytecode.sourceMap');
      asked.length = 0;
      expect(placeLines((await online()).stdout)[0]).toBe('  at src/lib/Balances.sol:11:20');
      expect(asked.filter((u) => u.startsWith('/v2/contract/'))).toEqual([]);
      // Run at fetch time (--tracer local), before --online finds the verified contract: that one run places it.
      const local = await runTxray([tx.withdraw!, '-r', anvil.url, '--online', '--sourcify-url', where, '--signatures-url', where, '--tracer', 'local', '--debug'], { TXRAY_CACHE_DIR: cache }, undefined, empty);
      expect(placeLines(local.stdout)[0]).toBe('  at src/lib/Balances.sol:11:20');
      expect(local.stderr.split('\n').filter((l) => l.includes('local run:'))).toHaveLength(1);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
