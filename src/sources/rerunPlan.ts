/** `txray call --tx`: the mined transaction a re-run starts from (pipeline/rerunInput.ts makes it), and where it runs. */
import type { ReplayFacts } from '../model/types.js';
import type { RpcReceipt } from '../raw/types.js';

/** What a re-run starts from and where it runs: the facts the model keeps of it (model/types.ts), and the node's answers. */
export interface RerunPlan extends Pick<ReplayFacts, 'hash' | 'blockNumber' | 'transactionIndex' | 'at' | 'changed'> {
  /** The transaction as the node gave it (its check: rerunInput.ts). */
  readonly tx: Readonly<Record<string, unknown>>;
  /** The receipt as raw/ checked it (null while pending). */
  readonly receipt: RpcReceipt | null;
  /** --from names another sender. */
  readonly anotherSender: boolean;
}
