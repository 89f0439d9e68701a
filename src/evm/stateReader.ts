/**
 * What the embedded EVM reads of a chain, and nothing more: an account, its code, a storage word and an
 * old block's hash, all at one block, with a way to ask for many ahead. The node answers today
 * (localRun/nodeReader.ts); a recording or a set of overrides can answer the same questions.
 */
import type { Hex } from '../raw/types.js';

export interface AccountRead {
  readonly nonce: bigint;
  readonly balance: bigint;
}

export interface StateReader {
  /** An account at the block (lower-case address); an account that does not exist reads as zeros. */
  account(address: string): Promise<AccountRead>;
  /** Its code ('0x' where it has none). */
  code(address: string): Promise<Hex>;
  /** One storage word (a 32-byte key), as the source gives it. */
  storage(address: string, slot: Hex): Promise<Hex>;
  /** Reads the run will likely make, asked for together, not awaited; slots as `<address>:<slot>`, lower case. */
  prefetch(accounts: readonly string[], slots: readonly string[]): void;
  /**
   * Whether a guessing run waits for this read instead of guessing it: an account asked ahead and not
   * taken yet, a slot asked ahead whose answer is in. A slot still on its way is guessed, and the guess
   * checked once it comes (NodeState.guessedRight): a replay of many transfers then runs while the
   * holders' balances travel, instead of after them.
   */
  asked(address: string, slot?: string): boolean;
  /** The hash of block `n` (BLOCKHASH), null where the source has none. */
  blockHash(n: bigint): Promise<Hex | null>;
}

/** A read the source could not answer: the run cannot go on (unlike a transaction the EVM refuses). */
export class NoState extends Error {
  override readonly name = 'NoState';
}
