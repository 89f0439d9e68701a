/** `txray call --tx`: the mined transaction a re-run starts from (pipeline/rerunInput.ts makes it), and where it runs. */
import type { ReplayFacts } from '../model/types.js';

/** What a re-run starts from and where it runs: the facts the model keeps of it (model/types.ts), and the node's answers. */
export interface RerunPlan extends Pick<ReplayFacts, 'hash' | 'blockNumber' | 'transactionIndex' | 'at' | 'changed'> {
  /** The transaction and its receipt as the node gave them (the receipt null while pending). */
  readonly tx: Readonly<Record<string, unknown>>;
  readonly receipt: Readonly<Record<string, unknown>> | null;
  /** --from names another sender. */
  readonly anotherSender: boolean;
}
