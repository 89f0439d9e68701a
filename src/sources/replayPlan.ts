/** `txray call --tx`: the mined transaction a re-run starts from (pipeline/replayInput.ts makes it), and where it runs. */
import type { Hex } from '../raw/types.js';

/** What a re-run starts from and where it runs. */
export interface ReplayPlan {
  readonly hash: Hex;
  /** The transaction and its receipt as the node gave them (the receipt null while pending). */
  readonly tx: Readonly<Record<string, unknown>>;
  readonly receipt: Readonly<Record<string, unknown>> | null;
  readonly blockNumber: bigint | null;
  readonly transactionIndex: number | null;
  /** 'position': where it was mined; else the block asked for (--block). */
  readonly at: string;
  /** Anything differs from the mined transaction (a field, the input, an override). */
  readonly changed: boolean;
  /** --from names another sender. */
  readonly anotherSender: boolean;
}
