/**
 * Decoding on a real node: the Scenarios.sol contracts laid out as a Foundry project (found from the
 * working directory), as a Hardhat project, and passed with --abi; and a run without any ABI, where
 * the standard token still decodes from the built-in data.
 */
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEV, writeFoundryProject } from '../../scripts/lib/scenarios.mjs';
import { forward, startRpcServer } from '../support/rpcServer.js';
import { jsonOf, runTxray } from '../support/runTxray.js';
import { type Anvil, withScenarioNode } from '../support/scenarioNode.js';
import { schemaErrors } from '../support/schema.js';

const compiled = JSON.parse(readFileSync(new URL('../../contracts/out/Scenarios.json', import.meta.url), 'utf8')).contracts as Record<
  string,
  { abi: unknown[]; bytecode: string; deployedBytecode: string }
>;

let anvil: Anvil;
let hashes: Record<string, string>;
let token: string;
let root: string;
let foundry: string;
let hardhat: string;
let empty: string;

withScenarioNode((s) => {
  ({ anvil, hashes, token } = s);
});
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'txray-decode-'));
  // A Foundry project: foundry.toml and out/<File>.sol/<Contract>.json artifacts.
  foundry = join(root, 'foundry');
  writeFoundryProject(foundry);
  // A Hardhat project: artifacts/…/X.json with contractName, and *.dbg.json files to skip.
  hardhat = join(root, 'hardhat');
  const dir = join(hardhat, 'artifacts', 'contracts', 'Scenarios.sol');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(hardhat, 'hardhat.config.js'), 'module.exports = {};\n');
  const t = compiled.Token!;
  writeFileSync(join(dir, 'Token.json'), JSON.stringify({ _format: 'hh-sol-artifact-1', contractName: 'Token', abi: t.abi, bytecode: t.bytecode, deployedBytecode: t.deployedBytecode }));
  writeFileSync(join(dir, 'Token.dbg.json'), JSON.stringify({ _format: 'hh-sol-dbg-1', buildInfo: '../../build-info/x.json' }));
  // A link out of the tree must not be followed.
  symlinkSync('/etc', join(hardhat, 'artifacts', 'escape'));
  empty = join(root, 'empty');
  mkdirSync(empty);
});
afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

const run = (name: string, cwd: string, ...extra: string[]) => runTxray([hashes[name]!, '-r', anvil.url, ...extra], {}, undefined, cwd);
const other = getAddress(DEV.other);
const sender = getAddress(DEV.sender);
const short = (a: string) => `${a.slice(0, 6)}…${a.slice(-4)}`;

describe('without any ABI: built-in data', () => {
  test('an ERC-20 transfer decodes by name, with its event and the transfer', async () => {
    const r = await run('tokenTransfer', empty);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Input\s+68 bytes: transfer\(to: 0x7099…79C8, amount: 40000000000000000000 \[4e19\]\) \(0xa9059cbb, builtin\)/);
    expect(r.stdout).toContain(`Transfer(from: ${short(sender)}, to: ${short(other)}, value: 40000000000000000000 [4e19]) (builtin)`);
    // Scaled by the token's own decimals() and named by its symbol(), read at the block.
    expect(r.stdout).toContain(`Transfers (1)\n  ${short(sender)} → ${short(other)}  40 TT ERC-20 ${short(getAddress(token))}\n`);
    expect(r.stdout).toMatch(/call 0x[0-9a-fA-F]{40}::transfer\(to: 0x7099…79C8, amount: 40000000000000000000 \[4e19\]\) · [\d,]+ gas ← true/);
    const doc = jsonOf(await run('tokenTransfer', empty, '--json'));
    expect(schemaErrors(doc)).toBe('');
    expect(doc.function).toEqual({
      name: 'transfer',
      signature: 'transfer(address,uint256)',
      args: [
        { name: 'to', type: 'address', value: other },
        { name: 'amount', type: 'uint256', value: '40000000000000000000' },
      ],
      source: 'builtin',
      contract: 'ERC-20',
    });
    expect(doc.calls.outputs).toEqual([{ name: '', type: 'bool', value: true }]);
    expect(doc.logs[0].event).toMatchObject({ name: 'Transfer', source: 'builtin', args: [{ name: 'from', indexed: true }, { name: 'to', indexed: true }, { name: 'value', indexed: false }] });
    expect(doc.logs[0].topics).toHaveLength(3); // raw fields kept beside
    expect(doc.transfers).toEqual([{ kind: 'ERC-20', token: token.toLowerCase(), from: DEV.sender, to: DEV.other, amount: '40000000000000000000', symbol: 'TT', decimals: 18 }]);
  });

  test('an unknown custom error stays raw; the signature database names what it knows', async () => {
    const r = await run('tokenFail', empty);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/Why it failed\n {2}custom error 0x[0-9a-f]{8}\n/);
    const doc = jsonOf(await run('showcase', empty, '--json'));
    expect(doc.function).toMatchObject({ name: 'run', signature: 'run(uint256)', source: 'database', args: [{ name: '', value: '3' }] });
  });
});

describe('a Foundry project in the working directory', () => {
  test('calls, creates, events and errors by name; contracts named by their code', async () => {
    const r = await run('showcase', foundry);
    expect(r.code).toBe(0);
    // The root line's gas is the transaction's, as the receipt says it (the Gas row above), whatever the tracer.
    expect(r.stdout).toContain('  call Showcase::run(depth: 3) · 10 wei · 429,299 gas ← 3\n');
    expect(r.stdout).toMatch(/├─ create Child\(0x[0-9a-fA-F]{40}\) · 1 wei · init 668 bytes/);
    expect(r.stdout).toMatch(/├─ call Child\(0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4}\)::ping\(x: 7\) · 2 wei · [\d,]+ gas ← 8\n/);
    expect(r.stdout).toMatch(/├─ delegatecall Logic::bump\(by: 3\) · 10 wei · [\d,]+ gas ← 3\n/);
    expect(r.stdout).toMatch(/├─ staticcall Child\(0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4}\)::fail\(why: "caught it"\) · [\d,]+ gas ✗ Reverted: Error: caught it\n/);
    expect(r.stdout).toContain('Step(step: 1, label: "caught") (project)');
    expect(r.stdout).toContain('Counted(counter: 3) (project)');
    const doc = jsonOf(await run('showcase', foundry, '--json'));
    expect(doc.function).toMatchObject({ name: 'run', source: 'project', contract: 'Showcase' });
    expect(doc.calls.children[1].function).toMatchObject({ name: 'ping', contract: 'Child', args: [{ name: 'x', type: 'uint256', value: '7' }] });
  });

  test('a custom error by name, with its arguments', async () => {
    const r = await run('tokenFail', foundry);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`Why it failed\n  InsufficientBalance(who: ${short(sender)}, have: 999960000000000000000000 [9.999e23], want: 10000000000000000000000000 [1e25]) (custom error 0x`);
    // The recipient delegated its code to Logic (EIP-7702) earlier in the scenarios: its code, read as an argument's, says so.
    expect(r.stdout).toMatch(/call Token::transfer\(to: 0x7099…79C8 \(delegated to Logic\), amount: 10000000000000000000000000 \[1e25\]\) · [\d,]+ gas ✗ Reverted: InsufficientBalance\(who: /);
    const nope = await run('custom', foundry);
    expect(nope.stdout).toContain(`Nope(who: ${short(sender)}, have: 0, want: 1000000000000000000000000 [1e24]) (custom error 0x5ffc47ee, from project Showcase)`);
    const doc = jsonOf(await run('tokenFail', foundry, '--json'));
    expect(doc.failure.revert).toMatchObject({ kind: 'custom', name: 'InsufficientBalance', signature: 'InsufficientBalance(address,uint256,uint256)', source: 'project', selector: expect.stringMatching(/^0x[0-9a-f]{8}$/) });
  });

  test('a create of a known artifact: its name and constructor arguments', async () => {
    const r = await run('tokenDeploy', foundry);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\n {2}create Token\(0x[0-9a-fA-F]{40}\) · constructor\(supply: 1000000000000000000000000 \[1e24\]\) · [\d,]+ gas ← code [\d,]+ bytes\n/);
    expect(r.stdout).toMatch(/To\s+contract creation → Token\(0x/);
    const doc = jsonOf(await run('tokenDeploy', foundry, '--json'));
    expect(doc.calls.function).toEqual({ name: 'constructor', signature: 'constructor(uint256)', args: [{ name: 'supply', type: 'uint256', value: '1000000000000000000000000' }], source: 'project', contract: 'Token' });
    // The mint in the constructor is a transfer from the zero address.
    expect(doc.transfers).toEqual([{ kind: 'ERC-20', token: doc.receipt.contractAddress, from: `0x${'0'.repeat(40)}`, to: DEV.sender, amount: '1000000000000000000000000', symbol: 'TT', decimals: 18 }]);
  });

  test('value with empty calldata to a contract runs its receive()', async () => {
    const r = await run('receive', foundry);
    expect(r.stdout).toMatch(/\n {2}call Showcase::receive\(\) · 5 wei · [\d,]+ gas ← no data\n/);
    const plain = await run('legacyTransfer', foundry);
    expect(plain.stdout).toMatch(/\n {2}call 0x70997970C51812dc3A010C7d01b50e0d17dc79C8 · 1\.5 ETH · 21,000 gas ← no data\n/);
  });

  test('the called contracts\' code is asked for in one batch request', async () => {
    const counting = await startRpcServer(({ method, params }) => forward(anvil.url, method, params));
    try {
      const r = await runTxray([hashes['showcase']!, '-r', counting.url], {}, undefined, foundry);
      expect(r.code).toBe(0);
      const code = counting.requests.filter((q) => q.method === 'eth_getCode');
      expect(code.length).toBeGreaterThan(1);
      expect(code.every((q) => q.batch === code.length)).toBe(true);
    } finally {
      await counting.close();
    }
  });

  test('--no-project-abis leaves the project alone', async () => {
    const doc = jsonOf(await run('showcase', foundry, '--json', '--no-project-abis'));
    expect(doc.function.source).toBe('database');
  });
});

describe('Foundry profiles', () => {
  let profiled: string;
  beforeAll(() => {
    // The artifacts where the ci profile writes them; the default profile (listed after it) writes to out/, which stays empty.
    profiled = join(root, 'profiled');
    writeFoundryProject(profiled);
    mkdirSync(join(profiled, 'build'), { recursive: true });
    renameSync(join(profiled, 'out'), join(profiled, 'build', 'ci'));
    mkdirSync(join(profiled, 'out'));
    writeFileSync(join(profiled, 'foundry.toml'), '[profile.ci]\nout = "build/ci"\n\n# the default profile\n[profile.default]\nsrc = "src"\nout = "out"\nextra_output = ["storageLayout"]\n');
  });
  const custom = (env: Record<string, string>) => runTxray([hashes['custom']!, '-r', anvil.url, '--json'], env, undefined, profiled);

  test('without FOUNDRY_PROFILE the default profile decides, wherever it stands in the file', async () => {
    const doc = jsonOf(await custom({}));
    expect(doc.failure.revert.source).not.toBe('project');
  });
  test('FOUNDRY_PROFILE=ci takes that profile\'s out on top of the default', async () => {
    const doc = jsonOf(await custom({ FOUNDRY_PROFILE: 'ci' }));
    expect(doc.failure.revert).toMatchObject({ name: 'Nope', source: 'project', contract: 'Showcase' });
  });
  test('a profile without its own out keeps the default\'s; FOUNDRY_OUT wins over both', async () => {
    expect(jsonOf(await custom({ FOUNDRY_PROFILE: 'nosuch' })).failure.revert.source).not.toBe('project');
    expect(jsonOf(await custom({ FOUNDRY_OUT: 'build/ci' })).failure.revert.source).toBe('project');
  });
  test('a foundry.toml that is not TOML falls back to out/, without failing', async () => {
    const broken = join(root, 'broken');
    writeFoundryProject(broken);
    writeFileSync(join(broken, 'foundry.toml'), '[profile.default\nout = "elsewhere"\n');
    const r = await runTxray([hashes['custom']!, '-r', anvil.url, '--json'], {}, undefined, broken);
    expect(r.code).toBe(1);
    expect(jsonOf(r).failure.revert.source).toBe('project');
  });
});

describe('--abi and a Hardhat project', () => {
  test('--abi with a directory, an artifact, a plain ABI array and a human-readable file', async () => {
    const abiFile = join(root, 'Showcase.abi.json');
    writeFileSync(abiFile, JSON.stringify(compiled.Showcase!.abi));
    const human = join(root, 'nope.txt');
    writeFileSync(human, '# the Showcase error, by hand\nerror Nope(address who, uint256 have, uint256 want)\n');
    for (const abi of [join(foundry, 'out'), join(foundry, 'out', 'Scenarios.sol', 'Showcase.json'), abiFile]) {
      const doc = jsonOf(await run('custom', empty, '--json', '--abi', abi));
      expect(doc.failure.revert).toMatchObject({ name: 'Nope', source: 'abi' });
    }
    const doc = jsonOf(await run('custom', empty, '--json', '--abi', human));
    expect(doc.failure.revert).toMatchObject({ name: 'Nope', args: [{ name: 'who', value: sender }, { name: 'have', value: '0' }, { name: 'want', value: '1000000000000000000000000' }] });
  });

  test('Hardhat artifacts/ is found from the working directory; *.dbg.json and links are skipped', async () => {
    const r = await run('tokenFail', hardhat);
    expect(r.stdout).toContain('InsufficientBalance(who: ');
    expect(r.stdout).toMatch(/call Token::transfer\(/);
  });

  test.each([
    ['a missing path', ['--abi', '/nonexistent/abi.json'], /^txray: --abi \/nonexistent\/abi\.json: no such file or directory\.\n$/],
    ['malformed JSON', ['--abi', 'BAD_JSON'], /--abi .*bad\.json: not valid JSON; expected a JSON ABI, an artifact, or one signature per line\.\n$/],
    ['JSON that is not an ABI', ['--abi', 'NOT_ABI'], /neither an ABI array nor an artifact/],
    ['a directory without ABIs', ['--abi', 'EMPTY_DIR'], /no ABI or artifact found in this directory/],
    ['a bad label', ['--labels', 'Alice'], /^txray: --labels #1 is not "0xADDRESS:Name" \('Alice'\)\.\n$/],
    ['a missing labels file', ['--labels-file', '/nonexistent.json'], /--labels-file \/nonexistent\.json: no such file/],
  ])('%s is a usage error before any request', async (_name, args, message) => {
    const bad = join(root, 'bad.json');
    writeFileSync(bad, '[{"type": "function",');
    const notAbi = join(root, 'notabi.json');
    writeFileSync(notAbi, '{"hello": 1}');
    const resolved = args.map((a) => (a === 'BAD_JSON' ? bad : a === 'NOT_ABI' ? notAbi : a === 'EMPTY_DIR' ? empty : a));
    const r = await runTxray([hashes.showcase!, '-r', 'http://127.0.0.1:1', ...resolved], {}, undefined, empty);
    expect(r.code).toBe(2); // a node that is not there is never asked: the error comes first
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
  });
});

describe('labels', () => {
  test('--labels and --labels-file name addresses everywhere; label text is escaped', async () => {
    const file = join(root, 'labels.json');
    writeFileSync(file, JSON.stringify({ [DEV.other]: 'Bob\u001b[31m\u202e' }));
    const r = await run('tokenTransfer', empty, '--labels', `${token}:TT`, '--labels-file', file);
    expect(r.stdout).toMatch(/call TT::transfer\(to: Bob\\x1b\[31m\\u\{202e\}\(0x7099…79C8\)/);
    expect(r.stdout).not.toMatch(/[\u001b\u202e]/);
  });
});
