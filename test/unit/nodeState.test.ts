import { describe, expect, test } from 'vitest';
import { Common, createAddressFromString, Mainnet } from '../../src/evm/evmEngine.js';
import { NodeState } from '../../src/evm/nodeState.js';
import type { RpcClient } from '../../src/rpc/createRpcClient.js';
import { nodeReader } from '../../src/localRun/nodeReader.js';

/** A node that is never asked: every read below is answered by the journal or a guess. */
const never: RpcClient = {
  call: () => Promise.reject(new Error('asked the node')),
  batch: () => Promise.reject(new Error('asked the node')),
  where: 'nowhere',
  close: async () => undefined,
};

describe('NodeState journal', () => {
  test('unwindTo puts the journal back to a depth, dropping what the levels above wrote (what a frame that threw a non-EVM error leaves behind)', async () => {
    const state = new NodeState(nodeReader(never, '0x1', new AbortController().signal), { common: new Common({ chain: Mainnet }) });
    const a = createAddressFromString('0x00000000000000000000000000000000000000aa');
    const depth = state.depth();
    await state.checkpoint();
    await state.putStorage(a, new Uint8Array(32), new Uint8Array([7]));
    await state.checkpoint();
    await state.checkpoint();
    expect(state.depth()).toBe(depth + 3);
    await state.unwindTo(depth);
    expect(state.depth()).toBe(depth);
    expect(state.storageStack.at(-1)!.size).toBe(0);
  });

  test('a guessed read is noted, answered empty, and kept only in the top level', async () => {
    const state = new NodeState(nodeReader(never, '0x1', new AbortController().signal), { common: new Common({ chain: Mainnet }) });
    const a = createAddressFromString('0x00000000000000000000000000000000000000bb');
    const depth = state.depth();
    await state.checkpoint();
    const notes = await state.guess(async () => {
      expect(await state.getAccount(a)).toBeUndefined();
      expect(await state.getStorage(a, new Uint8Array(32))).toEqual(new Uint8Array(0));
    });
    expect(notes.accounts).toEqual(['0x00000000000000000000000000000000000000bb']);
    expect(notes.slots).toEqual([`0x00000000000000000000000000000000000000bb:0x${'00'.repeat(32)}`]);
    await state.unwindTo(depth);
    // Nothing of the guess is left below: a real read would ask the node.
    expect(state.accountStack.every((level) => !level.has(a.toString()))).toBe(true);
    await expect(state.getAccount(a)).rejects.toThrow(/no state at block 1/);
  });
});
