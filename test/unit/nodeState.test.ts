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

describe('guessing beside reads asked ahead', () => {
  /** A node whose one batch answer comes when the test says (an ordering, not a timing). */
  function heldNode(): { client: RpcClient; answer: (results: unknown[]) => void; asked: () => number } {
    let answer: (results: unknown[]) => void = () => undefined;
    let batches = 0;
    const held = new Promise<unknown[]>((resolve) => (answer = resolve));
    const client: RpcClient = {
      call: () => Promise.reject(new Error('asked the node')),
      batch: async () => {
        batches++;
        return (await held).map((result) => ({ result }));
      },
      where: 'held',
      close: async () => undefined,
    };
    return { client, answer, asked: () => batches };
  }
  const a = createAddressFromString('0x00000000000000000000000000000000000000cc');
  const key = new Uint8Array(32);
  const id = `0x00000000000000000000000000000000000000cc:0x${'00'.repeat(32)}`;

  test('a slot asked ahead is guessed while its answer is on its way (the guess checked once it comes), and read once it is in', async () => {
    const node = heldNode();
    const state = new NodeState(nodeReader(node.client, '0x1', new AbortController().signal), { common: new Common({ chain: Mainnet }) });
    state.fetchAhead([], [id]);
    expect(node.asked()).toBe(1);
    const depth = state.depth();
    await state.checkpoint();
    const notes = await state.guess(async () => {
      expect(await state.getStorage(a, key)).toEqual(new Uint8Array(0));
    });
    expect(notes.slots).toEqual([id]);
    await state.unwindTo(depth);
    node.answer([`0x${'00'.repeat(31)}05`]);
    // The guess (empty) was wrong; the same batch answers it, nothing is asked again.
    expect(await state.guessedRight(notes)).toBe(false);
    const again = await state.guess(async () => {
      expect(await state.getStorage(a, key)).toEqual(new Uint8Array([5]));
    });
    expect(again.slots).toEqual([]);
    expect(node.asked()).toBe(1);
  });

  test('an empty slot guessed while on its way is told right once it comes', async () => {
    const node = heldNode();
    const state = new NodeState(nodeReader(node.client, '0x1', new AbortController().signal), { common: new Common({ chain: Mainnet }) });
    state.fetchAhead([], [id]);
    const notes = await state.guess(async () => void (await state.getStorage(a, key)));
    node.answer([`0x${'00'.repeat(32)}`]);
    expect(await state.guessedRight(notes)).toBe(true);
  });
});
