/**
 * The chain family from what the answers show, the L2 transaction types, and the system contracts'
 * names: OP Stack's checked against contracts-bedrock's own Predeploys library.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { encodeFunctionData, parseAbi } from 'viem';
import { describe, expect, test } from 'vitest';
import { AbiIndex } from '../../src/decode/abiIndex.js';
import { decodeCallData } from '../../src/decode/callData.js';
import { familyOf, isDeposit, L2_TX_TYPES, OP_PREDEPLOYS, typeKey, unaliasL1 } from '../../src/model/chain.js';
import { toReceipt, toTransaction } from '../../src/model/convert.js';
import type { Receipt, Transaction } from '../../src/model/types.js';
import type { RpcReceipt, RpcTransaction } from '../../src/raw/types.js';

// Written as the node sends them, converted as the model holds them.
const tx = (fields: Partial<RpcTransaction>): Transaction => toTransaction({ hash: null, blockHash: null, blockNumber: null, transactionIndex: null, from: '0x01', to: null, ...fields } as RpcTransaction);
const rc = (fields: Partial<RpcReceipt>): Receipt => toReceipt({ transactionHash: '0x00', logs: [], ...fields } as RpcReceipt);

describe('familyOf', () => {
  test('OP Stack: a deposit by type (any spelling), by deposit nonce, by source hash; a receipt with L1 fee fields', () => {
    for (const type of ['0x7e', '0x7E', '0x07e'] as const) expect(familyOf(tx({ type: type as `0x${string}` }), null)).toBe('op-stack');
    expect(isDeposit(null, rc({ depositNonce: '0x2' }))).toBe(true);
    expect(familyOf(tx({ sourceHash: `0x${'11'.repeat(32)}` }), null)).toBe('op-stack');
    expect(familyOf(tx({ type: '0x2' }), rc({ l1: { l1Fee: '0x1' } }))).toBe('op-stack');
  });

  test('Arbitrum: its receipt fields and its types', () => {
    expect(familyOf(null, rc({ gasUsedForL1: '0x10' }))).toBe('arbitrum');
    expect(familyOf(null, rc({ l1BlockNumber: '0x10' }))).toBe('arbitrum');
    for (const t of ['0x64', '0x65', '0x66', '0x68', '0x69', '0x6a', '0x78']) expect(familyOf(tx({ type: t as `0x${string}` }), null)).toBe('arbitrum');
  });

  test('by chain id where nothing else says; Ethereum and unknown chains: none', () => {
    expect(familyOf(tx({ type: '0x2', chainId: '0x2105' }), rc({}))).toBe('op-stack'); // Base
    expect(familyOf(tx({ type: '0x2', chainId: '0xa4b1' }), rc({}))).toBe('arbitrum'); // Arbitrum One
    expect(familyOf(tx({ type: '0x2', chainId: '0x1' }), rc({}))).toBeNull();
    expect(familyOf(tx({ type: '0x2', chainId: '0x7a69' }), rc({}))).toBeNull();
    expect(familyOf(tx({ type: '0x2' }), rc({ blobGasPrice: '0x1' }))).toBeNull();
  });
});

test('every L2 type has a name, keyed as typeKey writes it', () => {
  for (const [k, v] of Object.entries(L2_TX_TYPES)) {
    expect(typeKey(k)).toBe(k);
    expect(v.name.length).toBeGreaterThan(3);
  }
});

test('unaliasL1 undoes the OP Stack alias (+0x1111…1111, modulo 2^160)', () => {
  const l1 = 0x1234n;
  const aliased = `0x${((l1 + 0x1111000000000000000000000000000000001111n) % (1n << 160n)).toString(16).padStart(40, '0')}`;
  expect(unaliasL1(aliased as `0x${string}`)).toBe('0x0000000000000000000000000000000000001234');
  // Wraps below zero.
  expect(unaliasL1('0x0000000000000000000000000000000000000000')).toBe(`0x${((1n << 160n) - 0x1111000000000000000000000000000000001111n).toString(16)}`);
});

test('the OP Stack predeploys are those contracts-bedrock names', () => {
  const require = createRequire(import.meta.url);
  const dir = join(dirname(require.resolve('@eth-optimism/contracts-bedrock/package.json')), 'src', 'libraries');
  const text = readFileSync(join(dir, 'Predeploys.sol'), 'utf8') + readFileSync(join(dir, 'Constants.sol'), 'utf8');
  const declared = new Set([...text.matchAll(/address internal constant \w+ = (0x[0-9a-fA-F]{40});/g)].map((m) => m[1]!.toLowerCase()));
  for (const address of Object.keys(OP_PREDEPLOYS)) expect(declared, address).toContain(address);
  for (const vault of ['0x4200000000000000000000000000000000000019', '0x420000000000000000000000000000000000001a', '0x4200000000000000000000000000000000000011']) expect(OP_PREDEPLOYS[vault]).toMatch(/Vault$/);
});

describe('system contracts decoded offline', () => {
  const DB = new URL('../../dist/sigdb/', import.meta.url);

  test('Arbitrum precompiles at the addresses the Arbitrum SDK names, their calls named with parameter names', async () => {
    const { ARBITRUM_PRECOMPILES } = await import('../../src/model/chain.js');
    const require = createRequire(import.meta.url);
    const constants = require('@arbitrum/sdk/dist/lib/dataEntities/constants.js') as Record<string, string>;
    const sdk: Record<string, string> = { ARB_SYS_ADDRESS: 'ArbSys', ARB_RETRYABLE_TX_ADDRESS: 'ArbRetryableTx', ARB_ADDRESS_TABLE_ADDRESS: 'ArbAddressTable', NODE_INTERFACE_ADDRESS: 'NodeInterface', ARB_OWNER_PUBLIC: 'ArbOwnerPublic', ARB_GAS_INFO: 'ArbGasInfo', ARB_STATISTICS: 'ArbStatistics' };
    for (const [key, name] of Object.entries(sdk)) expect(ARBITRUM_PRECOMPILES[constants[key]!.toLowerCase()]).toBe(name);
    const index = new AbiIndex(DB);
    const input = encodeFunctionData({ abi: parseAbi(['function withdrawEth(address destination) payable returns (uint256)']), args: ['0x00000000000000000000000000000000000a11ce'] });
    expect(decodeCallData(index, input)?.decoded).toMatchObject({ name: 'withdrawEth', source: 'protocol', contract: 'ArbSys', args: [{ name: 'destination' }] });
  });

  test('OP Stack predeploys: a withdrawal through the L2ToL1MessagePasser, by name', () => {
    const index = new AbiIndex(DB);
    const input = encodeFunctionData({ abi: parseAbi(['function initiateWithdrawal(address _target, uint256 _gasLimit, bytes _data) payable']), args: ['0x00000000000000000000000000000000000a11ce', 100000n, '0x'] });
    expect(decodeCallData(index, input)?.decoded).toMatchObject({ name: 'initiateWithdrawal', source: 'protocol', args: [{ name: '_target' }, { name: '_gasLimit', value: '100000' }, { name: '_data' }] });
  });
});

test('an Arbitrum retryable keeps its ticket fields; anything not hex is left out with a warning', async () => {
  const { parseTransaction } = await import('../../src/raw/parseRaw.js');
  const hash = `0x${'ab'.repeat(32)}` as `0x${string}`;
  const warnings: string[] = [];
  const parsed = parseTransaction({ hash, from: `0x${'01'.repeat(20)}`, to: null, type: '0x68', ticketId: `0x${'cd'.repeat(32)}`, refundTo: `0x${'02'.repeat(20)}`, maxRefund: '0x10', submissionFeeRefund: 'lots' }, hash, (m) => warnings.push(m));
  expect(parsed?.retryable).toEqual({ ticketId: `0x${'cd'.repeat(32)}`, refundTo: `0x${'02'.repeat(20)}`, maxRefund: '0x10' });
  expect(warnings).toEqual(['transaction.submissionFeeRefund is not valid ("lots"); ignored.']);
  expect(familyOf(toTransaction(parsed!), null)).toBe('arbitrum');
});

describe('the address book (mainnet names, from a published package)', () => {
  const DB = new URL('../../dist/sigdb/', import.meta.url);
  const model = (chainId: string | undefined) => ({ tx: tx({ type: '0x2', ...(chainId ? { chainId: chainId as `0x${string}` } : {}) }), receipt: rc({}), state: null }) as never;

  test('a token\'s symbol and decimals by the transaction\'s chain: mainnet\'s on mainnet, a local chain or one that does not say', async () => {
    const { bookToken } = await import('../../src/decode/labels.js');
    const index = new AbiIndex(DB);
    const WETH = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2';
    for (const id of ['0x1', '0x7a69', undefined]) expect(bookToken(model(id), index, WETH)).toEqual({ symbol: 'WETH', decimals: 18 });
    // On Base, mainnet's WETH address is nothing; Base's own tokens are Base's.
    expect(bookToken(model('0x2105'), index, WETH)).toBeNull();
    expect(bookToken(model('0x2105'), index, '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913')).toEqual({ symbol: 'USDC', decimals: 6 });
    expect(bookToken(model('0x1'), index, '0x00000000000000000000000000000000000a11ce')).toBeNull();
  });

  test('every entry a lower-case address with a name; the 2018–2020 generation is in it', () => {
    const book = new AbiIndex(DB).addressBook();
    expect([...book].length).toBeGreaterThan(100);
    for (const [a, e] of book) {
      expect(a).toMatch(/^0x[0-9a-f]{40}$/);
      expect(e.name.length).toBeGreaterThan(0);
    }
    expect(book.get('0x398ec7346dcd622edc5ae82352f02be94c62d119')?.name).toBe('Aave v1 LendingPool');
    expect(book.get('0x1e0447b19bb6ecfdae1e4ae1694b0c3659614e4e')?.name).toBe('dYdX SoloMargin');
    expect(book.get('0x5ef30b9986345249bc32d8928b7ee64de9435e39')?.name).toBe('Maker DssCdpManager');
    // From the token list, with symbol and decimals; Safe's singletons by name and version.
    expect(book.get('0xdac17f958d2ee523a2206206994597c13d831ec7')).toEqual({ name: 'USDT', symbol: 'USDT', decimals: 6, key: null });
    expect(book.get('0xd9db270c1b5e3bd161e8c8503c55ceabee709552')?.name).toBe('Safe GnosisSafe 1.3.0');
    // Aave's markets by their address book, v2 and v3 (and v3's Lido market apart).
    expect(book.get('0x87870bca3f3fd6335c3f4ce8392d69350b4fa4e2')?.name).toBe('Aave v3 Pool');
    expect(book.get('0x7d2768de32b0b80b7a3454c06bdac94a69ddc7a9')?.name).toBe('Aave v2 Pool');
    expect(book.get('0x4e033931ad43597d96d6bcc25c280717730b58b1')?.name).toBe('Aave v3 Lido Pool');
    expect(new AbiIndex(DB).addressBook(8453).get('0xa238dd80c259a72e81d7e4664a9801593f98d1c5')?.name).toBe('Aave v3 Pool');
    // Another chain's part: Base's USDC is Base's, not mainnet's.
    const base = new AbiIndex(DB).addressBook(8453);
    expect(base.get('0x833589fcd6edb6e08f4c7c32d4f71b54bda02913')).toMatchObject({ symbol: 'USDC', decimals: 6 });
    expect(book.get('0x833589fcd6edb6e08f4c7c32d4f71b54bda02913')).toBeUndefined();
  });
});

test('the 2018–2020 generation decoded offline with parameter names: Aave v1, DSProxy, Kyber, Uniswap v1', () => {
  const index = new AbiIndex(new URL('../../dist/sigdb/', import.meta.url));
  index.addBuiltins();
  const A = '0x00000000000000000000000000000000000a11ce';
  const calls: Array<[string, readonly unknown[], string, string[]]> = [
    ['function deposit(address _reserve, uint256 _amount, uint16 _referralCode) payable', [A, 5n, 0], 'deposit', ['_reserve', '_amount', '_referralCode']],
    // DSProxy's execute: another package of the set names it first (target, data).
    ['function execute(address _target, bytes _data) payable returns (bytes32 response)', [A, '0x1234'], 'execute', ['target', 'data']],
    ['function tradeWithHint(address src, uint256 srcAmount, address dest, address destAddress, uint256 maxDestAmount, uint256 minConversionRate, address walletId, bytes hint) payable returns (uint256)', [A, 1n, A, A, 2n, 3n, A, '0x'], 'tradeWithHint', ['src', 'srcAmount', 'dest', 'destAddress', 'maxDestAmount', 'minConversionRate', 'walletId', 'hint']],
    ['function ethToTokenSwapInput(uint256 min_tokens, uint256 deadline) payable returns (uint256)', [1n, 2n], 'ethToTokenSwapInput', ['min_tokens', 'deadline']],
  ];
  for (const [sig, args, name, names] of calls) {
    const input = (encodeFunctionData as (p: { abi: unknown; args: readonly unknown[] }) => `0x${string}`)({ abi: parseAbi([sig] as [string]), args });
    const d = decodeCallData(index, input)?.decoded;
    expect(d, sig).toMatchObject({ name, source: 'protocol' });
    expect(d!.args.map((a) => a.name)).toEqual(names);
  }
});
