/**
 * geth's state overrides (`{address: {balance, nonce, code, state, stateDiff}}`, as eth_call and
 * debug_traceCall take them) as a layer over another StateReader: the EVM reads the changed state the
 * same way it reads the node's, so a run with overrides is the same run. `state` replaces the account's
 * whole storage (a slot it does not name reads as zero); `stateDiff` changes only the slots it names.
 * Typed and checked once (raw/types.ts's StateOverride, made by cli/parseStateOverride.ts and cli/parseCall.ts).
 */
import type { Hex, StateOverride } from '../raw/types.js';
import type { AccountRead, StateReader } from './stateReader.js';
import { ZERO_WORD } from '../raw/hex.js';

interface AccountOverride {
  readonly balance?: bigint;
  readonly nonce?: bigint;
  readonly code?: Hex;
  /** The whole storage (`state`), or null where only `stateDiff` changes it. */
  readonly state: ReadonlyMap<string, Hex> | null;
  readonly stateDiff: ReadonlyMap<string, Hex>;
}


/** A slot as the EVM asks for it: 32 bytes, lower case. */
const slotKey = (slot: string): string => `0x${BigInt(slot).toString(16).padStart(64, '0')}`;

const slotsOf = (words: Readonly<Record<Hex, Hex>> | undefined): Map<string, Hex> => new Map(Object.entries(words ?? {}).map(([slot, w]) => [slotKey(slot), w]));

function accountOverride(o: StateOverride[Hex]): AccountOverride {
  return {
    ...(o.balance !== undefined ? { balance: BigInt(o.balance) } : {}),
    ...(o.nonce !== undefined ? { nonce: BigInt(o.nonce) } : {}),
    ...(o.code !== undefined ? { code: o.code } : {}),
    state: o.state === undefined ? null : slotsOf(o.state),
    stateDiff: slotsOf(o.stateDiff),
  };
}

class OverriddenState implements StateReader {
  private readonly by = new Map<string, AccountOverride>();

  constructor(
    private readonly under: StateReader,
    overrides: StateOverride,
  ) {
    for (const [address, o] of Object.entries(overrides)) this.by.set(address.toLowerCase(), accountOverride(o));
  }

  async account(address: string): Promise<AccountRead> {
    const o = this.by.get(address.toLowerCase());
    if (o === undefined || (o.balance === undefined && o.nonce === undefined)) return this.under.account(address);
    if (o.balance !== undefined && o.nonce !== undefined) return { balance: o.balance, nonce: o.nonce };
    const read = await this.under.account(address);
    return { balance: o.balance ?? read.balance, nonce: o.nonce ?? read.nonce };
  }

  code(address: string): Promise<Hex> {
    const code = this.by.get(address.toLowerCase())?.code;
    return code === undefined ? this.under.code(address) : Promise.resolve(code);
  }

  storage(address: string, slot: Hex): Promise<Hex> {
    const o = this.by.get(address.toLowerCase());
    if (o === undefined) return this.under.storage(address, slot);
    const key = slotKey(slot);
    const set = o.stateDiff.get(key) ?? o.state?.get(key);
    if (set !== undefined) return Promise.resolve(set);
    return o.state !== null ? Promise.resolve(ZERO_WORD) : this.under.storage(address, slot);
  }

  prefetch(accounts: readonly string[], slots: readonly string[]): void {
    this.under.prefetch(accounts, slots.filter((id) => this.by.get(id.split(':')[0]!)?.state == null));
  }

  asked(address: string, slot?: string): boolean {
    // A replaced storage is known here: nothing to wait for.
    if (slot !== undefined && this.by.get(address)?.state != null) return true;
    return this.under.asked(address, slot);
  }

  blockHash(n: bigint): Promise<Hex | null> {
    return this.under.blockHash(n);
  }
}

/** `under` as the overrides change it (under itself where there are none). */
export function overrideReader(under: StateReader, overrides: StateOverride | null): StateReader {
  return overrides === null || Object.keys(overrides).length === 0 ? under : new OverriddenState(under, overrides);
}
