/**
 * Envelopes on a real anvil, from published bytecode: ERC-4337 EntryPoint v0.8, SimpleAccountFactory and
 * SimpleAccount (@account-abstraction/contracts 0.8.0), Safe 1.4.1's singleton, proxy factory and MultiSend
 * (@safe-global/safe-contracts 1.4.1), Multicall3 as deployed at 0xcA11…CA11 (its runtime code as the OP
 * Stack preinstalls it, @eth-optimism/contracts-bedrock), and the Scenarios Token (a custom error).
 * Accounts are deployed through their first op's initCode (the factory serves only the SenderCreator).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { concat, encodeAbiParameters, encodeDeployData, encodeFunctionData, encodePacked, type Abi, type Hex, pad, parseEther, toHex } from 'viem';
import { privateKeyToAccount, sign } from 'viem/accounts';
import { call, DEV, deployData, receipt } from '../../scripts/lib/scenarios.mjs';

const require = createRequire(import.meta.url);
type Artifact = { abi: Abi; bytecode: Hex };
const aa = (name: string): Artifact => JSON.parse(readFileSync(join(dirname(require.resolve('@account-abstraction/contracts/package.json')), 'artifacts', `${name}.json`), 'utf8')) as Artifact;
const safeArtifact = (path: string): Artifact => JSON.parse(readFileSync(join(dirname(require.resolve('@safe-global/safe-contracts/package.json')), 'build', 'artifacts', 'contracts', `${path}.json`), 'utf8')) as Artifact;

/** Multicall3's deployed runtime code, as the OP Stack preinstalls it at the same address. */
function multicall3Code(): Hex {
  const source = readFileSync(join(dirname(require.resolve('@eth-optimism/contracts-bedrock/package.json')), 'src', 'libraries', 'Preinstalls.sol'), 'utf8');
  const m = /MultiCall3Code\s*=\s*hex"([0-9a-f]+)"/.exec(source);
  if (m === null) throw new Error('no MultiCall3Code in Preinstalls.sol');
  return `0x${m[1]}`;
}
export const MULTICALL3 = '0xcA11bde05977b3631167028862bE2a173976CA11';

/**
 * A contract that emits whatever log its call data spells (topics 0–3, then the data): a lookalike
 * "EntryPoint" at another address. Runtime: calldatacopy the data, log4 with the four topic words.
 */
const LOOKALIKE_RUNTIME = '0x60803603806080600037606035906040359060203590600035906000a400';
const lookalikeInit = (): Hex => {
  const size = (LOOKALIKE_RUNTIME.length - 2) / 2;
  const len = size.toString(16).padStart(2, '0');
  return `0x60${len}600c60003960${len}6000f3${LOOKALIKE_RUNTIME.slice(2)}`;
};

type Rpc = (method: string, params?: unknown[]) => Promise<any>;

const OWNERS = ['0x1111111111111111111111111111111111111111111111111111111111111111', '0x2222222222222222222222222222222222222222222222222222222222222222'] as const;
export const RECIPIENT = '0x000000000000000000000000000000000000c0de';
export const RECIPIENT2 = '0x000000000000000000000000000000000000c0df';
const BENEFICIARY = '0x000000000000000000000000000000000000bea1';

async function mined(rpc: Rpc, hash: Hex): Promise<any> {
  const r = await receipt(rpc, hash);
  return r;
}

async function deploy(rpc: Rpc, data: Hex): Promise<Hex> {
  const r = await mined(rpc, await rpc('eth_sendTransaction', [{ from: DEV.sender, data, gas: toHex(16_000_000) }]));
  if (r.status !== '0x1' || r.contractAddress == null) throw new Error('deployment failed');
  return r.contractAddress as Hex;
}

async function sendTo(rpc: Rpc, to: Hex, data: Hex, value = 0n): Promise<Hex> {
  const hash = await rpc('eth_sendTransaction', [{ from: DEV.sender, to, data, value: toHex(value), gas: toHex(5_000_000) }]);
  await mined(rpc, hash);
  return hash;
}

const ethCall = async (rpc: Rpc, to: Hex, data: Hex): Promise<Hex> => rpc('eth_call', [{ to, data }, 'latest']);

export interface OperationsNode {
  entryPoint: Hex;
  token: Hex;
  accounts: [Hex, Hex];
  safe: Hex;
  multiSend: Hex;
  lookalike: Hex;
  hashes: { partialBundle: Hex; fullBundle: Hex; safeFailure: Hex; safeMultiSend: Hex; aggregate3: Hex; lookalike: Hex; rolledBack: Hex; notRun: Hex; multicallFailure: Hex; safeGs013: Hex; viaMulticall: Hex };
}

/** Everything deployed and every scenario mined; each returns its hash (the tests read the facts back from the node). */
export async function makeOperations(rpc: Rpc): Promise<OperationsNode> {
  const token = await deploy(rpc, deployData('Token', [10n ** 24n]));
  const ep = aa('EntryPoint');
  const entryPoint = await deploy(rpc, ep.bytecode);
  const factoryArt = aa('SimpleAccountFactory');
  const factory = await deploy(rpc, encodeDeployData({ abi: factoryArt.abi, bytecode: factoryArt.bytecode, args: [entryPoint] }));
  const owners = OWNERS.map((k) => privateKeyToAccount(k));
  const accountAbi = aa('SimpleAccount').abi;
  const addressOf = async (owner: Hex): Promise<Hex> => `0x${(await ethCall(rpc, factory, encodeFunctionData({ abi: factoryArt.abi, functionName: 'getAddress', args: [owner, 0n] }))).slice(26)}`;
  const accounts = [await addressOf(owners[0]!.address), await addressOf(owners[1]!.address)] as [Hex, Hex];
  for (const a of accounts) await rpc('eth_sendTransaction', [{ from: DEV.sender, to: a, value: toHex(parseEther('1')) }]);
  await sendTo(rpc, token, call('Token', 'transfer', [accounts[0], parseEther('100')]));

  const op = async (i: 0 | 1, nonce: bigint, callData: Hex, withInit: boolean) => {
    const initCode = withInit ? concat([factory, encodeFunctionData({ abi: factoryArt.abi, functionName: 'createAccount', args: [owners[i]!.address, 0n] })]) : '0x';
    const packed = {
      sender: accounts[i],
      nonce,
      initCode,
      callData,
      accountGasLimits: encodePacked(['uint128', 'uint128'], [1_500_000n, 500_000n]),
      preVerificationGas: 60_000n,
      gasFees: encodePacked(['uint128', 'uint128'], [10n ** 9n, 20n * 10n ** 9n]),
      paymasterAndData: '0x' as Hex,
      signature: '0x' as Hex,
    };
    const hash = (await ethCall(rpc, entryPoint, encodeFunctionData({ abi: ep.abi, functionName: 'getUserOpHash', args: [packed] }))) as Hex;
    return { ...packed, signature: await sign({ hash, privateKey: OWNERS[i]!, to: 'hex' }) };
  };
  const execute = (to: Hex, data: Hex): Hex => encodeFunctionData({ abi: accountAbi, functionName: 'execute', args: [to, 0n, data] });
  const handleOps = async (ops: unknown[]): Promise<Hex> => sendTo(rpc, entryPoint, encodeFunctionData({ abi: ep.abi, functionName: 'handleOps', args: [ops, BENEFICIARY] }));

  // A bundle of two: the first sends 5 TT, the second has no TT and its transfer reverts InsufficientBalance.
  const partialBundle = await handleOps([
    await op(0, 0n, execute(token, call('Token', 'transfer', [RECIPIENT, parseEther('5')])), true),
    await op(1, 0n, execute(token, call('Token', 'transfer', [RECIPIENT, parseEther('5')])), true),
  ]);
  // Both succeed; the second runs executeBatch (v0.8's (target, value, data)[]).
  await sendTo(rpc, token, call('Token', 'transfer', [accounts[1], parseEther('10')]));
  const batch = encodeFunctionData({
    abi: accountAbi,
    functionName: 'executeBatch',
    args: [[{ target: token, value: 0n, data: call('Token', 'transfer', [RECIPIENT, parseEther('1')]) }, { target: token, value: 0n, data: call('Token', 'transfer', [RECIPIENT2, parseEther('2')]) }]],
  });
  const fullBundle = await handleOps([await op(0, 1n, execute(token, call('Token', 'transfer', [RECIPIENT2, parseEther('3')])), false), await op(1, 1n, batch, false)]);

  // One op whose executeBatch reverts at its second call (1e24 TT, more than it has): the first transfer ran and was undone.
  const undone = encodeFunctionData({
    abi: accountAbi,
    functionName: 'executeBatch',
    args: [[{ target: token, value: 0n, data: call('Token', 'transfer', [RECIPIENT, parseEther('1')]) }, { target: token, value: 0n, data: call('Token', 'transfer', [RECIPIENT2, parseEther('1000000')]) }]],
  });
  const rolledBack = await handleOps([await op(0, 2n, undone, false)]);
  // executeBatch's call data sent to an address without code: nothing ran, so no batch is there.
  const notRun = await sendTo(rpc, RECIPIENT, undone);

  const safeParts = await makeSafe(rpc, token);
  const { aggregate3, failed: multicallFailure } = await multicall(rpc, token);
  // A bundle sent through Multicall3: aggregate3's one call is handleOps (account 0's op, nonce 3, sending 1 TT).
  const bundle = encodeFunctionData({ abi: ep.abi, functionName: 'handleOps', args: [[await op(0, 3n, execute(token, call('Token', 'transfer', [RECIPIENT, parseEther('1')])), false)], BENEFICIARY] });
  const viaMulticall = await sendTo(rpc, MULTICALL3, encodeFunctionData({ abi: AGGREGATE3, functionName: 'aggregate3', args: [[{ target: entryPoint, allowFailure: false, callData: bundle }]] }));
  // The lookalike: a UserOperationEvent (account 0's, a success) from a contract no handleOps called.
  const lookalike = await deploy(rpc, lookalikeInit());
  const fake = concat([
    '0x49628fd1471006c1482da88028e9ce4dbb080b815c9b0344d39e5a8e6ec1419f',
    pad('0xfa4e', { size: 32 }),
    pad(accounts[0], { size: 32 }),
    pad('0x00', { size: 32 }),
    encodeAbiParameters([{ type: 'uint256' }, { type: 'bool' }, { type: 'uint256' }, { type: 'uint256' }], [7n, true, 1n, 1n]),
  ]);
  const lookalikeHash = await sendTo(rpc, lookalike, fake);
  return { entryPoint, token, accounts, safe: safeParts.safe, multiSend: safeParts.multiSend, lookalike, hashes: { partialBundle, fullBundle, safeFailure: safeParts.failure, safeMultiSend: safeParts.multi, aggregate3, lookalike: lookalikeHash, rolledBack, notRun, multicallFailure, safeGs013: safeParts.gs013, viaMulticall } };
}

/** A 1-of-1 Safe owned by the node's unlocked sender, which signs by being the caller (v = 1). */
async function makeSafe(rpc: Rpc, token: Hex): Promise<{ safe: Hex; multiSend: Hex; failure: Hex; multi: Hex; gs013: Hex }> {
  const single = safeArtifact('Safe.sol/Safe');
  const factoryArt = safeArtifact('proxies/SafeProxyFactory.sol/SafeProxyFactory');
  const multiArt = safeArtifact('libraries/MultiSend.sol/MultiSend');
  const singleton = await deploy(rpc, single.bytecode);
  const proxyFactory = await deploy(rpc, factoryArt.bytecode);
  const multiSend = await deploy(rpc, multiArt.bytecode);
  const zero = '0x0000000000000000000000000000000000000000';
  const setup = encodeFunctionData({ abi: single.abi, functionName: 'setup', args: [[DEV.sender], 1n, zero, '0x', zero, zero, 0n, zero] });
  const created = await mined(rpc, await sendTo(rpc, proxyFactory, encodeFunctionData({ abi: factoryArt.abi, functionName: 'createProxyWithNonce', args: [singleton, setup, 0n] })));
  const safe = `0x${(created.logs as Array<{ address: string; topics: string[] }>).find((l) => l.address.toLowerCase() === proxyFactory.toLowerCase())!.topics[1]!.slice(26)}` as Hex;
  await sendTo(rpc, token, call('Token', 'transfer', [safe, parseEther('10')]));
  const approved = concat([pad(DEV.sender as Hex, { size: 32 }), pad('0x00', { size: 32 }), '0x01']);
  const exec = (to: Hex, data: Hex, operation: number, safeTxGas: bigint): Hex =>
    encodeFunctionData({ abi: single.abi, functionName: 'execTransaction', args: [to, 0n, data, operation, safeTxGas, 0n, 0n, zero, zero, approved] });
  // safeTxGas non-zero: a failing inner call is an ExecutionFailure, not a revert of the whole execTransaction.
  const failure = await sendTo(rpc, safe, exec(token, call('Token', 'transfer', [RECIPIENT, parseEther('1000')]), 0, 200_000n));
  const packed = (to: Hex, data: Hex): Hex => encodePacked(['uint8', 'address', 'uint256', 'uint256', 'bytes'], [0, to, 0n, BigInt((data.length - 2) / 2), data]);
  const transactions = concat([packed(token, call('Token', 'transfer', [RECIPIENT, parseEther('1')])), packed(token, call('Token', 'transfer', [RECIPIENT2, parseEther('2')]))]);
  const multi = await sendTo(rpc, safe, exec(multiSend, encodeFunctionData({ abi: multiArt.abi, functionName: 'multiSend', args: [transactions] }), 1, 0n));
  // safeTxGas and gasPrice both 0: the failing inner call reverts the whole execTransaction with GS013.
  const gs013 = await sendTo(rpc, safe, exec(token, call('Token', 'transfer', [RECIPIENT, parseEther('1000')]), 0, 0n));
  return { safe, multiSend, failure, multi, gs013 };
}

const AGGREGATE3 = [{ type: 'function', name: 'aggregate3', stateMutability: 'payable', inputs: [{ name: 'calls', type: 'tuple[]', components: [{ name: 'target', type: 'address' }, { name: 'allowFailure', type: 'bool' }, { name: 'callData', type: 'bytes' }] }], outputs: [] }] as const;

/**
 * Multicall3 at its address; aggregate3 with an allowed failure (a transfer Multicall3 has no tokens for)
 * and a read; then the same transfer as call 2 without allowFailure, which reverts the whole batch.
 */
async function multicall(rpc: Rpc, token: Hex): Promise<{ aggregate3: Hex; failed: Hex }> {
  await rpc('anvil_setCode', [MULTICALL3, multicall3Code()]);
  const abi = AGGREGATE3;
  const calls = [
    { target: token, allowFailure: true, callData: call('Token', 'transfer', [RECIPIENT, 1n]) },
    { target: token, allowFailure: false, callData: call('Token', 'balanceOf', [RECIPIENT]) },
  ];
  const aggregate3 = await sendTo(rpc, MULTICALL3, encodeFunctionData({ abi, functionName: 'aggregate3', args: [calls] }));
  const strict = [
    { target: token, allowFailure: false, callData: call('Token', 'balanceOf', [RECIPIENT]) },
    { target: token, allowFailure: false, callData: call('Token', 'transfer', [RECIPIENT, 1n]) },
  ];
  const failed = await sendTo(rpc, MULTICALL3, encodeFunctionData({ abi, functionName: 'aggregate3', args: [strict] }));
  return { aggregate3, failed };
}
