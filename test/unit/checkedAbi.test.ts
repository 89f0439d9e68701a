/**
 * A service's ABI as the ABI index takes it: checked item by item into abitype's shape (no cast), so a
 * hostile or legacy answer keeps what is well formed and names the calls and events it declares.
 */
import { decodeFunctionData, encodeFunctionData, parseAbi, toEventSelector, toFunctionSelector } from 'viem';
import { describe, expect, test } from 'vitest';
import { AbiIndex } from '../../src/decode/abiIndex.js';
import { checkedAbi } from '../../src/rpc/fetchOnline.js';

const DB = new URL('../../dist/sigdb/', import.meta.url);

describe("a service's ABI", () => {
  const answer = [
    // A compiler from before stateMutability: `constant` and `payable`.
    { type: 'function', name: 'balance', constant: true, inputs: [{ name: 'who', type: 'address' }], outputs: [{ name: '', type: 'uint256' }] },
    { type: 'function', name: 'pay', payable: true, inputs: [] },
    { type: 'function', name: 'put', stateMutability: 'nonpayable', inputs: [{ name: 'o', type: 'tuple', components: [{ name: 'a', type: 'uint8' }, { name: 'b', type: 'bytes32[]' }] }] },
    { type: 'event', name: 'Moved', inputs: [{ name: 'from', type: 'address', indexed: true }, { name: 'n', type: 'uint256' }] },
    { type: 'error', name: 'Nope', inputs: [{ name: 'why', type: 'string' }] },
    // Left out: anonymous events, constructors, unknown types, names that are not identifiers, a tuple without components.
    { type: 'event', name: 'Hidden', anonymous: true, inputs: [] },
    { type: 'constructor', inputs: [] },
    { type: 'function', name: 'odd', inputs: [{ name: 'x', type: 'uint7' }] },
    { type: 'function', name: '\u001b[31mred', inputs: [] },
    { type: 'function', name: 'bare', inputs: [{ name: 't', type: 'tuple' }] },
    'not an item',
  ];

  test('keeps the well-formed functions, events and errors in the shape the index and viem read', () => {
    const abi = checkedAbi(answer);
    expect(abi.map((i) => `${i.type} ${i.name}`)).toEqual(['function balance', 'function pay', 'function put', 'event Moved', 'error Nope']);
    expect(abi.flatMap((i) => (i.type === 'function' ? [i.stateMutability] : []))).toEqual(['view', 'payable', 'nonpayable']);
    const put = encodeFunctionData({ abi, functionName: 'put', args: [{ a: 7, b: [] }] });
    expect(decodeFunctionData({ abi, data: put }).args).toEqual([{ a: 7, b: [] }]);
  });

  test('names what it declares once added to the index', () => {
    const index = new AbiIndex(DB);
    index.add(checkedAbi(answer), 'sourcify', 'Vault');
    expect(index.functionCandidates(toFunctionSelector('put((uint8,bytes32[]))'))[0]).toMatchObject({ source: 'sourcify', contract: 'Vault' });
    expect(index.eventCandidates(toEventSelector('Moved(address,uint256)'), 1)[0]).toMatchObject({ source: 'sourcify', contract: 'Vault' });
    expect(index.functionCandidates(toFunctionSelector(parseAbi(['function odd(uint8 x)'])[0]!)).some((c) => c.source === 'sourcify')).toBe(false);
  });
});
