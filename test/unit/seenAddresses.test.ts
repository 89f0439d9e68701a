/** The addresses a transaction shows without calling them, whose code is read with the called ones' (pipeline/seenAddresses.ts). */
import { encodeAbiParameters, encodeFunctionData, pad, parseAbi } from 'viem';
import { describe, expect, test } from 'vitest';
import { seenAddresses } from '../../src/pipeline/seenAddresses.js';
import type { Hex, RpcLog } from '../../src/raw/types.js';
import { decodedModel } from '../support/decodedModel.js';

const SENDER: Hex = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const TOKEN: Hex = '0xdc64a140aa3e981100a9beca4e685f962f0cf6c9';
const VAULT: Hex = '0x5fc8d32690cc91d4c39d9d3abcbd16989f875707';
const PAIR: Hex = '0x0ae19c8ec0c46412197552784d36a6296aa1f1ef';
const ROUTER: Hex = '0x9fe46736679d2d9a65f0992f2272de9f3c7fa6e0';
const APPROVAL: Hex = '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925';

const log = (address: Hex, topics: Hex[], data: Hex = '0x'): RpcLog => ({ address, topics, data }) as RpcLog;

describe('seenAddresses', () => {
  const approve = encodeFunctionData({ abi: parseAbi(['function approve(address spender, uint256 amount)']), args: [VAULT, 10n ** 21n] });
  const model = decodedModel({
    from: SENDER,
    to: TOKEN,
    input: approve,
    logs: [log(TOKEN, [APPROVAL, pad(SENDER), pad(VAULT)], encodeAbiParameters([{ type: 'uint256' }], [10n ** 21n])), log(PAIR, [APPROVAL], encodeAbiParameters([{ type: 'address' }], [VAULT]))],
  });

  test('emitters first, then indexed addresses and call data; amounts are not addresses; the known ones left out', () => {
    expect(seenAddresses(model, new Set([SENDER, TOKEN]), 32)).toEqual([PAIR, VAULT]);
  });

  test('never more than the limit', () => {
    expect(seenAddresses(model, new Set([SENDER]), 1)).toEqual([TOKEN]);
    expect(seenAddresses(model, new Set(), 0)).toEqual([]);
  });

  test('a call without logs: the addresses among its arguments, word by word past the selector (a swap path too)', () => {
    const swap = encodeFunctionData({
      abi: parseAbi(['function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)']),
      args: [10n ** 20n, 0n, [TOKEN, ROUTER], VAULT, 1n],
    });
    const reverted = decodedModel({ from: SENDER, to: VAULT, input: swap, logs: [] });
    expect(seenAddresses(reverted, new Set([SENDER]), 32)).toEqual([VAULT, TOKEN, ROUTER]);
  });
});
