/**
 * The report's fund flow on made-up movements: nodes and merged edges (flowGraph), the grouping past
 * MAX_NODES addresses, and the SVG's markup contract with hostile labels and symbols escaped.
 */
import { describe, expect, test } from 'vitest';
import { type FlowMovement, flowGraph, fundFlowSection, MAX_EDGES, MAX_NODES, OTHERS } from '../../src/render/fundFlow.js';
import type { Hex } from '../../src/raw/types.js';
import { decodedModel } from '../support/decodedModel.js';

const addr = (n: number): Hex => `0x${n.toString(16).padStart(40, '0')}` as Hex;
const ZERO = addr(0);
const [A, B, C] = [addr(0xa1), addr(0xb2), addr(0xc3)];
const TOKEN = addr(0x70c);
const eth = (from: Hex, to: Hex, amount: bigint): FlowMovement => ({ from, to, asset: 'ETH', standard: 'ETH', amount });
const tok = (from: Hex, to: Hex, amount: bigint, extra: Partial<FlowMovement> = {}): FlowMovement => ({ from, to, asset: TOKEN, standard: 'ERC-20', amount, ...extra });

/** Every element of the SVG with `attribute`, as the attribute's values. */
const valuesOf = (svg: string, attribute: string): string[] => [...svg.matchAll(new RegExp(` ${attribute}="([^"]*)"`, 'g'))].map((m) => m[1]!);

describe('flowGraph', () => {
  test('the same asset moved again the same way between the same two addresses is one edge, counted, summed, with its numbers', () => {
    const movements = [eth(A, B, 1n), eth(A, B, 2n), tok(A, B, 5n), eth(A, B, 4n), eth(B, A, 8n), tok(B, C, 5n)];
    const g = flowGraph({ movements, actor: A, labels: {} });
    expect(g.nodes.map((n) => [n.id, n.role])).toEqual([[A, 'actor'], [B, 'address'], [C, 'address']]);
    expect(g.edges.map((e) => [e.from, e.to, e.sample.asset, e.amount, e.orders])).toEqual([
      [A, B, 'ETH', 7n, [1, 2, 4]],
      [A, B, TOKEN, 5n, [3]],
      [B, A, 'ETH', 8n, [5]],
      [B, C, TOKEN, 5n, [6]],
    ]);
    expect(g.hidden).toBe(0);
  });

  test('NFTs of one collection are one edge with their ids; the zero address is mint, burn, or both', () => {
    const nft = (id: string): FlowMovement => ({ from: ZERO, to: A, asset: TOKEN, standard: 'ERC-721', amount: 1n, tokenId: id, symbol: 'PUNK' });
    const [edge, ...more] = flowGraph({ movements: [nft('1'), nft('2')], actor: A, labels: {} }).edges;
    expect(more).toEqual([]);
    expect([edge!.amount, edge!.orders, edge!.tokenIds]).toEqual([2n, [1, 2], ['1', '2']]);
    expect(fundFlowSection({ movements: [nft('1'), nft('2')], actor: A, labels: {} })).toContain('>#1 #2 ×2 2 × PUNK</text>');
    expect(fundFlowSection({ movements: [nft('7')], actor: A, labels: {} })).toContain('>#1 PUNK #7</text>');
    const role = (movements: FlowMovement[]): string | undefined => flowGraph({ movements, actor: A, labels: {} }).nodes.find((n) => n.id === ZERO)?.role;
    expect(role([tok(ZERO, A, 1n)])).toBe('mint');
    expect(role([tok(A, ZERO, 1n)])).toBe('burn');
    expect(role([tok(ZERO, A, 1n), tok(B, ZERO, 1n)])).toBe('mint-burn');
  });

  test(`past ${MAX_NODES} addresses: the actor and the busiest stay, the rest are one node, and what ran among them is counted`, () => {
    // The actor pays 60 addresses once each; 5 of them are busier (paid again by B); two more addresses trade with each other last.
    const payees = Array.from({ length: 60 }, (_, i) => addr(0x1000 + i));
    const [X, Y] = [addr(0x2000), addr(0x2001)];
    const movements = [...payees.map((p) => eth(A, p, 1n)), ...payees.slice(55).map((p) => tok(B, p, 3n)), tok(X, Y, 9n)];
    const g = flowGraph({ movements, actor: A, labels: {} });
    expect(g.nodes).toHaveLength(MAX_NODES);
    const group = g.nodes.find((n) => n.id === OTHERS)!;
    expect(group.role).toBe('group');
    expect(group.addresses).toHaveLength(64 - (MAX_NODES - 1));
    const kept = new Set(g.nodes.filter((n) => n !== group).map((n) => n.id));
    expect(kept.has(A) && kept.has(B)).toBe(true);
    for (const p of payees.slice(55)) expect(kept.has(p)).toBe(true);
    // Every address is in exactly one node.
    expect(g.nodes.flatMap((n) => n.addresses).sort()).toEqual([A, B, X, Y, ...payees].sort());
    expect(group.addresses).toContain(X);
    // The actor's payments to the grouped payees are one edge; the grouped pair's own trade is not drawn.
    const toGroup = g.edges.filter((e) => e.to === OTHERS);
    expect(toGroup.map((e) => [e.from, e.orders.length])).toEqual([[A, group.addresses.length - 2]]);
    expect(g.hidden).toBe(1);
    expect(g.edges.reduce((n, e) => n + e.orders.length, 0) + g.hidden).toBe(movements.length);
  });

  test(`past ${MAX_EDGES} edges fewer addresses stay, and every movement is still on an edge or counted as hidden`, () => {
    // 300 movements among 40 addresses, nearly every one a pair of its own.
    const movements = Array.from({ length: 300 }, (_, i) => eth(addr(0x1000 + (i % 40)), addr(0x1000 + ((i + 1 + Math.floor(i / 40)) % 40)), 1n));
    const g = flowGraph({ movements, actor: addr(0x1000), labels: {} });
    expect(g.edges.length).toBeLessThanOrEqual(MAX_EDGES);
    expect(g.nodes.length).toBeLessThan(40);
    expect(g.nodes.some((n) => n.id === addr(0x1000) && n.role === 'actor')).toBe(true);
    expect(g.edges.reduce((n, e) => n + e.orders.length, 0) + g.hidden).toBe(300);
    expect(g.nodes.flatMap((n) => n.addresses)).toHaveLength(40);
  });
});

describe('fundFlowSection', () => {
  test('nothing moved: no section', () => {
    expect(fundFlowSection({ movements: [], actor: A, labels: {} })).toBe('');
  });

  test('the markup contract: one node per address, every edge with from, to, asset, count and numbers', () => {
    const movements = [eth(A, B, 10n ** 18n), tok(B, C, 5n * 10n ** 6n, { symbol: 'USDX', decimals: 6 }), tok(B, C, 10n ** 6n, { symbol: 'USDX', decimals: 6 }), tok(ZERO, A, 3n)];
    const html = fundFlowSection({ movements, actor: A, labels: { [B]: 'Router' } });
    expect(html).toMatch(/^<section [^>]*data-fund-flow/);
    const addresses = valuesOf(html, 'data-address');
    expect(addresses.sort()).toEqual([ZERO, A, B, C].sort());
    expect(valuesOf(html, 'data-from')).toEqual([A, B, ZERO]);
    expect(valuesOf(html, 'data-to')).toEqual([B, C, A]);
    expect(valuesOf(html, 'data-asset')).toEqual(['ETH', TOKEN, TOKEN]);
    expect(valuesOf(html, 'data-count')).toEqual(['1', '2', '1']);
    expect(valuesOf(html, 'data-order')).toEqual(['1', '2 3', '4']);
    expect(html).toContain('>#1 1 ETH</text>');
    expect(html).toContain('>#2 #3 ×2 6 USDX</text>');
    expect(html).toContain('>Router</text>');
    expect(html).toContain('>mint</text>');
    expect(html).toContain('>actor</text>');
    expect(html).not.toContain('<script');
  });

  test('labels and token symbols are text: markup in them is escaped, never written', () => {
    const evil = '<script>alert(1)</script>';
    const html = fundFlowSection({ movements: [tok(A, B, 1n, { symbol: `"><img src=x onerror=alert(1)>`, decimals: 0 })], actor: A, labels: { [B]: evil } });
    expect(html).not.toMatch(/<script|<img/);
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
    expect(html).toContain('&#34;&#62;&#60;img src=x onerror=alert(1)&#62;');
  });

  test(`past ${MAX_NODES} addresses the section says how many were grouped`, () => {
    const movements = Array.from({ length: 66 }, (_, i) => eth(A, addr(0x1000 + i), 1n));
    const html = fundFlowSection({ movements, actor: A, labels: {} });
    expect(valuesOf(html, 'data-address')).toHaveLength(MAX_NODES - 1);
    expect(valuesOf(html, 'data-addresses')[0]!.split(' ')).toHaveLength(67 - (MAX_NODES - 1));
    expect(html).toContain('>+28 addresses</text>');
    expect(html).toContain('the 28 addresses in the fewest movements are one node');
  });
});

describe('movementsInOrder', () => {
  test('an unwrap with only its receipt: the ether leg the known WETH adds stays ether, and the burned WETH takes ether decimals', async () => {
    const { movementsInOrder } = await import('../../src/action/flowOrder.js');
    const { WITHDRAWAL } = await import('../../src/decode/transfers.js');
    const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2' as Hex;
    const word = (a: Hex): Hex => `0x${a.slice(2).padStart(64, '0')}` as Hex;
    const wad = 25n * 10n ** 15n;
    const logs = [{ address: WETH, topics: [WITHDRAWAL as Hex, word(A)], data: `0x${wad.toString(16).padStart(64, '0')}` as Hex }];
    const model = decodedModel({ from: A, to: WETH, input: '0x2e1a7d4d', logs });
    const moves = movementsInOrder(model);
    expect(moves).toEqual([
      { from: WETH, to: A, asset: 'ETH', standard: 'ETH', amount: wad },
      { from: A, to: ZERO, asset: WETH, standard: 'ERC-20', amount: wad, decimals: 18 },
    ]);
  });
});
