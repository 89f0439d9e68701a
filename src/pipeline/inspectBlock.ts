/**
 * `txray block`'s pipeline: the block source (sources/fetchBlock.ts) hands on one SourceAnswers per
 * transaction; each becomes its model (modelAnswers) and runs the stages every lookup runs
 * (completeModel), side by side; the block stage (block/summarizeBlock.ts) then reads the finished
 * models. The transactions' follow-up batches (token symbols and decimals, code) go out together.
 */
import { summarizeBlock } from '../block/summarizeBlock.js';
import type { BlockView } from '../block/types.js';
import type { Decoder } from '../decode/createDecoder.js';
import { RpcFailure } from '../errors.js';
import type { InspectModel } from '../model/types.js';
import { isHash, lowerHex } from '../raw/hex.js';
import { toBlockHeader } from '../model/convert.js';
import { parseBlockAnswer } from '../raw/parseBlock.js';
import type { Hex, SourceAnswers } from '../raw/types.js';
import { coalesceBatches } from '../rpc/coalesceBatches.js';
import type { RpcClient } from '../rpc/createRpcClient.js';
import type { TracerState } from '../rpc/types.js';
import { type BlockId, fetchBlock } from '../sources/fetchBlock.js';
import { type CompleteSettings, completeModel } from './completeModel.js';
import { modelAnswers } from './modelAnswers.js';

export interface InspectBlockSettings {
  readonly tracer: TracerState;
  readonly timeoutMs: number;
  /** Keep each transaction's answers verbatim (--html writes each one's page from them). */
  readonly keepAnswers: boolean;
  readonly complete: CompleteSettings;
  readonly decoderReady: Promise<Decoder>;
  /** Told when each stage is done, for --debug. */
  readonly onStage?: (stage: string) => void;
}

function hashOf(answers: SourceAnswers, index: number): Hex {
  const hash = (answers.transaction as { hash?: unknown }).hash;
  if (!isHash(hash)) throw new RpcFailure('malformed', `eth_getBlockByHash: the node's answer is malformed (transaction ${index} has no valid "hash"); the block cannot be shown.`, { method: 'eth_getBlockByHash' });
  return lowerHex(hash);
}

export async function inspectBlock(client: RpcClient, id: BlockId, s: InspectBlockSettings): Promise<BlockView> {
  const answers = await fetchBlock(client, id, { tracer: s.tracer, timeoutMs: s.timeoutMs, debug: s.complete.debug });
  s.onStage?.(`${answers.transactions.length} transaction(s) fetched`);
  const warnings = answers.warnings;
  const header = toBlockHeader(parseBlockAnswer(answers.header, (m) => void warnings.push(m)), answers.transactions.length);
  const decoder = await s.decoderReady;
  const batched = coalesceBatches(client);
  // Each transaction's answers are let go once its model is made: the block is never held twice.
  const left: Array<SourceAnswers | undefined> = answers.transactions;
  const models: InspectModel[] = await Promise.all(
    answers.transactions.map(async (a, i) => {
      const hash = hashOf(a, i);
      const model = await modelAnswers(hash, a, { keepAnswers: s.keepAnswers, inPendingBlock: answers.pending });
      left[i] = undefined;
      return completeModel(batched, decoder.forInput(), model, s.complete);
    }),
  );
  s.onStage?.('models complete');
  return summarizeBlock(header, models, answers.pending, warnings);
}
