/**
 * The state diff of local re-execution, as geth's prestateTracer in diff mode gives it ({pre, post}):
 * what the touched accounts held before the transaction, read from a copy of the journal taken before
 * it ran (or from the node, for what nobody had read yet), against what they hold after.
 */
import { type Account, bytesToHex, createAddressFromString, hexToBytes } from './evmEngine.js';
import { toQuantity } from '../raw/hex.js';
import type { Hex, Json } from './localEvm.js';
import type { NodeState } from './nodeState.js';

type Journal = { readonly accounts: Map<string, Account | undefined>; readonly code: Map<string, Uint8Array>; readonly storage: Map<string, Uint8Array> };

/** What the journal holds just before the transaction: a copy of its top level. Starts the touched set afresh. */
export function journalBefore(state: NodeState): Journal {
  const before = { accounts: new Map(state.accountStack.at(-1)), code: new Map(state.codeStack.at(-1)), storage: new Map(state.storageStack.at(-1)) };
  state.touched.clear();
  return before;
}

const word = (v: Uint8Array): string => `0x${bytesToHex(v).slice(2).padStart(64, '0')}`;

/** The touched slots of one account that changed, before and after, as 32-byte words. */
async function slotChanges(state: NodeState, before: Journal, address: string, slots: Iterable<string>): Promise<{ pre: Json; post: Json }> {
  const a = createAddressFromString(address);
  const key = a.toString();
  const pre: Json = {};
  const post: Json = {};
  for (const slot of slots) {
    const id = `${key}_${slot}`;
    const at = hexToBytes(slot as Hex);
    const was = before.storage.has(id) ? before.storage.get(id)! : await state.remoteStorage(a, at);
    const now = await state.getStorage(a, at);
    if (word(was) !== word(now)) {
      pre[word(at)] = word(was);
      post[word(at)] = word(now);
    }
  }
  return { pre, post };
}

/** The diff of every account the run touched, after it ran; `before` from journalBefore. */
export async function stateDiff(state: NodeState, before: Journal): Promise<{ pre: Json; post: Json }> {
  const pre: Json = {};
  const post: Json = {};
  for (const [address, slots] of state.touched) {
    const a = createAddressFromString(address);
    const key = a.toString();
    const beforeAccount = before.accounts.has(key) ? before.accounts.get(key) : await state.remoteAccount(a);
    const beforeCode = before.code.has(key) ? before.code.get(key)! : await state.remoteCode(a);
    const after = await state.view(address);
    const preEntry: Json = {};
    const postEntry: Json = {};
    const beforeBalance = beforeAccount?.balance ?? 0n;
    const beforeNonce = beforeAccount?.nonce ?? 0n;
    if (beforeAccount !== undefined) {
      preEntry.balance = toQuantity(beforeBalance);
      preEntry.nonce = Number(beforeNonce);
      if (beforeCode.length > 0) preEntry.code = bytesToHex(beforeCode);
    }
    if (after.balance !== beforeBalance) postEntry.balance = toQuantity(after.balance);
    if (after.nonce !== beforeNonce) postEntry.nonce = Number(after.nonce);
    if (bytesToHex(after.code) !== bytesToHex(beforeCode)) postEntry.code = bytesToHex(after.code);
    const storage = await slotChanges(state, before, address, slots);
    if (Object.keys(storage.pre).length > 0) {
      preEntry.storage = storage.pre;
      postEntry.storage = storage.post;
    }
    const changed = Object.keys(postEntry).length > 0 || (beforeAccount === undefined && after.exists);
    if (!changed) continue;
    if (beforeAccount !== undefined) pre[address] = preEntry;
    if (after.exists || Object.keys(postEntry).length > 0) post[address] = postEntry;
  }
  return { pre, post };
}
