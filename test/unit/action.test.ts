/**
 * The action stage's rules on models made of logs and transfers: protocol events count only from an
 * emitter named as that protocol's and with their own topic count (event hashes collide across
 * protocols), a wrapped-native Deposit only where the ether went in, zero-amount transfers never, the
 * Safe and the ERC-4337 account are the actor; and, over random movements, every holder's changes add
 * up to zero per asset and the actor's sent/received hold only what it moved.
 */
import { encodeAbiParameters, getAddress } from 'viem';
import { describe, expect, test } from 'vitest';
import { describeAction } from '../../src/action/describeAction.js';
import { netChanges, sentAndReceived, type Movement } from '../../src/action/movements.js';
import { TOPIC0 } from '../../src/action/protocols.js';
import { APPROVAL, DEPOSIT, WITHDRAWAL } from '../../src/decode/transfers.js';
import { keccakHex } from '../../src/decode/keccak.js';
import type { InspectModel, Transfer } from '../../src/model/types.js';
import type { Hex, RpcLog } from '../../src/raw/types.js';
import { decodedModel } from '../support/decodedModel.js';

const addr = (n: number): Hex => `0x${n.toString(16).padStart(40, '0')}`;
const word = (a: Hex): Hex => `0x${a.slice(2).padStart(64, '0')}`;
const topic = (signature: string): Hex => `0x${keccakHex(signature)}`;
const SENDER = addr(0xa11ce);
const POOL = addr(0xaa7e);
const USDC = addr(0x05dc);
const A_USDC = addr(0xa05dc);

const model = (o: { logs?: RpcLog[]; transfers?: Transfer[]; labels?: Record<string, string>; bookKeys?: Record<string, string>; to?: Hex; value?: bigint }): InspectModel => decodedModel({ ...o, from: SENDER, to: o.to ?? POOL });

const erc20 = (token: Hex, from: Hex, to: Hex, amount: bigint): Transfer => ({ kind: 'ERC-20', token, from, to, amount, symbol: token === USDC ? 'USDC' : 'aUSDC', decimals: 6 });
const supplyLog = (emitter: Hex): RpcLog => ({
  address: emitter,
  topics: [topic('Supply(address,address,address,uint256,uint16)'), word(USDC), word(SENDER), word('0x0000000000000000000000000000000000000000')],
  data: encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [SENDER, 10_000_000_000n]),
});
const supplied = [erc20(USDC, SENDER, A_USDC, 10_000_000_000n), erc20(A_USDC, addr(0), SENDER, 10_000_000_000n)];

test('every topic0 the action stage matches is keccak256 of its signature', () => {
  for (const [signature, topic0] of Object.entries(TOPIC0)) expect(topic0, signature).toBe(topic(signature));
  expect([APPROVAL, DEPOSIT, WITHDRAWAL]).toEqual(['Approval(address,address,uint256)', 'Deposit(address,uint256)', 'Withdrawal(address,uint256)'].map(topic));
});

describe('protocol events', () => {
  test('Aave v3 Supply from the pool the address book keys as one: supplied, the reserve named, the protocol given', () => {
    const did = describeAction(model({ logs: [supplyLog(POOL)], transfers: supplied, bookKeys: { [POOL]: 'aave-v3-pool' } }))!;
    expect(did.action).toMatchObject({ kind: 'supply', summary: 'Supplied 10,000 USDC to Aave v3', protocols: ['Aave v3'] });
  });

  test('a name that reads like the pool (--labels, an artifact) is not trusted: only the address book\'s key is', () => {
    for (const name of ['Aave v3 Pool', 'Aave v3 Fake Pool']) {
      const did = describeAction(model({ logs: [supplyLog(POOL)], transfers: supplied, labels: { [POOL]: name } }))!;
      expect(did.action.kind, name).not.toBe('supply');
      expect(did.action.protocols, name).not.toContain('Aave v3');
    }
    // An Aave v2 pool's key does not make a v3 event trusted.
    expect(describeAction(model({ logs: [supplyLog(POOL)], transfers: supplied, bookKeys: { [POOL]: 'aave-v2-pool' } }))!.action.kind).not.toBe('supply');
  });

  test('the same event from a contract nobody names as Aave is not trusted', () => {
    const did = describeAction(model({ logs: [supplyLog(POOL)], transfers: supplied }))!;
    expect(did.action.kind).not.toBe('supply');
    expect(did.action.protocols).not.toContain('Aave v3');
  });

  test('Uniswap v2 Mint has two topics; an event of the same hash with one topic is not liquidity', () => {
    const mint = (topics: Hex[]): RpcLog => ({ address: POOL, topics, data: encodeAbiParameters([{ type: 'uint256' }, { type: 'uint256' }], [1n, 2n]) });
    const lp = [erc20(USDC, SENDER, POOL, 5n), { kind: 'ERC-20' as const, token: POOL, from: addr(0), to: SENDER, amount: 7n }];
    const v2 = describeAction(model({ logs: [mint([topic('Mint(address,uint256,uint256)'), word(SENDER)])], transfers: lp }))!;
    expect(v2.action.kind).toBe('add-liquidity');
    const other = describeAction(model({ logs: [mint([topic('Mint(address,uint256,uint256)')])], transfers: lp }))!;
    expect(other.action.kind).not.toBe('add-liquidity');
  });
});

describe('movements', () => {
  const deposit = (emitter: Hex, holder: Hex, amount: bigint): RpcLog => ({ address: emitter, topics: [topic('Deposit(address,uint256)'), word(holder)], data: encodeAbiParameters([{ type: 'uint256' }], [amount]) });
  const ether = (from: Hex, to: Hex, amount: bigint): Transfer => ({ kind: 'ETH', from, to, amount });

  test('a Deposit is a wrap where the holder sent the token that much ether, and not otherwise', () => {
    const weth = addr(0x3e7);
    const wrapped = describeAction(model({ to: weth, logs: [deposit(weth, SENDER, 5n)], transfers: [ether(SENDER, weth, 5n)] }))!;
    expect(wrapped.action).toMatchObject({ kind: 'wrap', received: [{ asset: weth, amount: 5n }] });
    // A vault's Deposit(address,uint256) with no ether in: nothing is counted as received.
    const vault = describeAction(model({ to: weth, logs: [deposit(weth, SENDER, 5n)] }))!;
    expect(vault.action.received).toEqual([]);
    expect(vault.action.kind).toBe('call');
  });

  test('without a trace, mainnet WETH\'s Withdrawal still returns the ether to its holder: an unwrap, counted once', () => {
    const weth: Hex = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';
    const withdrawal: RpcLog = { address: weth, topics: [topic('Withdrawal(address,uint256)'), word(SENDER)], data: encodeAbiParameters([{ type: 'uint256' }], [7n]) };
    const untraced = describeAction(model({ to: weth, logs: [withdrawal] }))!;
    expect(untraced.action).toMatchObject({ kind: 'unwrap', sent: [{ asset: weth, amount: 7n }], received: [{ asset: 'ETH', amount: 7n }] });
    // With the trace's ether transfer there, it is not added a second time.
    const traced = describeAction(model({ to: weth, logs: [withdrawal], transfers: [ether(weth, SENDER, 7n)] }))!;
    expect(traced.action.received).toEqual([{ asset: 'ETH', standard: 'ETH', amount: 7n }]);
    // A token nobody knows as wrapped-native gets no ether leg it did not show.
    const other = addr(0x3e8);
    const unknown = describeAction(model({ to: other, logs: [{ ...withdrawal, address: other }] }))!;
    expect(unknown.action.received).toEqual([]);
  });

  test('zero-amount transfers (address poisoning) are not movements', () => {
    const did = describeAction(model({ transfers: [erc20(USDC, addr(0xbad), SENDER, 0n)] }))!;
    expect(did.action.received).toEqual([]);
    expect(did.netChanges).toEqual([]);
  });

  test('the Safe that executed, and the smart account of one user operation, are the actor', () => {
    const safe = addr(0x5afe);
    const exec: RpcLog = { address: safe, topics: [topic('ExecutionSuccess(bytes32,uint256)')], data: encodeAbiParameters([{ type: 'bytes32' }, { type: 'uint256' }], [`0x${'22'.repeat(32)}`, 0n]) };
    const bySafe = describeAction(model({ to: safe, logs: [exec], transfers: [erc20(USDC, safe, addr(0xb0b), 1_000_000n)] }))!;
    expect(bySafe.action).toMatchObject({ actor: safe, kind: 'transfer', summary: expect.stringMatching(/^Sent 1 USDC to /) });
    const account = addr(0xacc);
    const op: RpcLog = { address: addr(0xe4), topics: [topic('UserOperationEvent(bytes32,address,address,uint256,bool,uint256,uint256)'), `0x${'33'.repeat(32)}`, word(account), word(addr(0))], data: '0x' };
    expect(describeAction(model({ logs: [op] }))!.action.actor).toBe(account);
  });
});

describe('bridges', () => {
  const BRIDGE = addr(0xb1d6e);
  test('an ETH deposit: the ether the actor sent, to the chain the address book bridge key says', () => {
    const log: RpcLog = { address: BRIDGE, topics: [topic('ETHDepositInitiated(address,address,uint256,bytes)'), word(SENDER), word(SENDER)], data: encodeAbiParameters([{ type: 'uint256' }, { type: 'bytes' }], [2n * 10n ** 18n, '0x']) };
    const did = describeAction(model({ to: BRIDGE, logs: [log], transfers: [{ kind: 'ETH', from: SENDER, to: BRIDGE, amount: 2n * 10n ** 18n }], bookKeys: { [BRIDGE]: 'bridge:Base' } }))!;
    expect(did.action).toMatchObject({ kind: 'bridge', summary: 'Bridged 2 ETH to Base', protocols: ['Base bridge'] });
  });

  test('an ERC-20 deposit: the token by its topic, the amount the actor sent', () => {
    const log: RpcLog = {
      address: BRIDGE,
      topics: [topic('ERC20DepositInitiated(address,address,address,address,uint256,bytes)'), word(USDC), word(addr(0x12c)), word(SENDER)],
      data: encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }, { type: 'bytes' }], [SENDER, 5_000_000n, '0x']),
    };
    const did = describeAction(model({ to: BRIDGE, logs: [log], transfers: [erc20(USDC, SENDER, BRIDGE, 5_000_000n)], bookKeys: { [BRIDGE]: 'bridge:Zora' } }))!;
    expect(did.action).toMatchObject({ kind: 'bridge', summary: 'Bridged 5 USDC to Zora' });
  });
});

describe('nothing else fits', () => {
  test('the function called, by its contract name; a function no source names, by its selector', () => {
    const named = model({ labels: { [POOL]: 'Vault' } });
    const withName = { ...named, decoded: { ...named.decoded!, function: { name: 'harvest', signature: 'harvest()', args: [], source: 'abi' as const } } };
    expect(describeAction(withName)!.action).toMatchObject({ kind: 'call', summary: 'Called Vault.harvest()', sent: [], received: [] });
    expect(describeAction(model({}))!.action.summary).toBe(`Called ${getAddress(POOL).slice(0, 6)}…${getAddress(POOL).slice(-4)} (selector 0x12345678)`);
  });
});

describe('net changes (property)', () => {
  // A small deterministic generator: the same cases every run.
  let seed = 7;
  const next = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
  const holders = [addr(1), addr(2), addr(3), addr(4), addr(0)];
  const assets: Array<'ETH' | Hex> = ['ETH', addr(0x70), addr(0x71)];

  test.each(Array.from({ length: 50 }, (_, i) => i))('random movements #%i: zero per asset, the actor first, only its own assets', () => {
    const movements: Movement[] = Array.from({ length: 1 + next(12) }, () => {
      const asset = assets[next(assets.length)]!;
      return { from: holders[next(holders.length)]!, to: holders[next(holders.length)]!, asset, standard: asset === 'ETH' ? 'ETH' : 'ERC-20', amount: BigInt(1 + next(1000)) };
    });
    const actor = holders[next(4)]!;
    const changes = netChanges(movements, actor);
    for (const asset of assets) expect(changes.filter((c) => c.asset === asset).reduce((n, c) => n + c.change, 0n)).toBe(0n);
    const own = (a: string): bigint => movements.reduce((n, m) => n + (m.asset === a && m.to === actor && m.from !== actor ? m.amount : 0n) - (m.asset === a && m.from === actor && m.to !== actor ? m.amount : 0n), 0n);
    // The actor's changes come first where it has any (worked out from the movements, not from the answer), none otherwise.
    const actorMoved = assets.some((a) => own(a) !== 0n);
    expect(changes.findIndex((c) => c.holder === actor)).toBe(actorMoved ? 0 : -1);
    // The other holders after it, by address, each holder's changes together.
    const others = changes.map((c) => c.holder).filter((h, i, all) => h !== actor && all[i - 1] !== h);
    expect(others).toEqual([...new Set(others)].sort());
    const { sent, received } = sentAndReceived(changes, actor);
    for (const x of sent) expect(own(x.asset)).toBe(-x.amount);
    for (const x of received) expect(own(x.asset)).toBe(x.amount);
    expect(new Set([...sent, ...received].map((x) => x.asset)).size).toBe(sent.length + received.length);
  });
});

describe('EIP-7702: a type-4 transaction whose only effect is its authorizations', () => {
  const DELEGATE = addr(0xde1e);
  const OTHER = addr(0xb0b);
  const fact = (authority: Hex | null, applied: boolean | null, revocation = false) => ({ chainId: 1n, address: revocation ? addr(0) : DELEGATE, nonce: 0n, authority, applied, reason: applied === true ? null : 'why', revocation });
  const typeFour = (facts: ReturnType<typeof fact>[], extra: Partial<InspectModel> = {}): InspectModel => {
    const m = model({ to: SENDER, labels: { [DELEGATE]: 'Delegate' } });
    return { ...m, tx: { ...m.tx!, input: '0x' }, authorizations: facts, ...extra };
  };

  test.each([
    [[fact(SENDER, true)], 'Delegated its account to Delegate (EIP-7702)'],
    [[fact(SENDER, true, true)], 'Cleared its EIP-7702 delegation'],
    [[fact(OTHER, true)], `Delegated ${getAddress(OTHER).slice(0, 6)}…${getAddress(OTHER).slice(-4)} to Delegate (EIP-7702)`],
    [[fact(SENDER, true), fact(OTHER, false)], 'Delegated its account to Delegate (EIP-7702; 1 not applied)'],
    [[fact(SENDER, true), fact(OTHER, true), fact(null, false), fact(OTHER, null)], 'Set 2 EIP-7702 delegations (1 not applied, 1 not known whether applied)'],
    [[fact(OTHER, false)], 'Set no EIP-7702 delegation: 1 not applied'],
  ] as const)('%# %s', (facts, summary) => {
    expect(describeAction(typeFour([...facts]))!.action).toMatchObject({ kind: 'delegate', summary });
  });

  test('with ether or a call in it, the rest of the rules say what it did', () => {
    const m = typeFour([fact(SENDER, true)]);
    expect(describeAction({ ...m, tx: { ...m.tx!, input: '0xa9059cbb' } })!.action.kind).not.toBe('delegate');
    expect(describeAction({ ...m, tx: { ...m.tx!, value: 5n } })!.action.kind).not.toBe('delegate');
    // A delegate's code ran on the empty input and logged something: not a delegation alone.
    const logged = { ...m, receipt: { ...m.receipt!, logs: [{ address: SENDER, topics: [topic('Approval(address,address,uint256)'), word(SENDER), word(OTHER)], data: word(addr(1)) }] } };
    expect(describeAction(logged)!.action.kind).not.toBe('delegate');
    // Without authorizations, a transaction to itself with nothing in it is still a cancel or a nonce bump.
    expect(describeAction({ ...m, authorizations: [] })!.action.summary).toBe('Sent nothing to itself (a cancel or a nonce bump)');
  });
});
