/** `txray block`'s argument, checked before any request: a number, a hash or a tag (a UsageError otherwise, exit 2). */
import { UsageError } from '../errors.js';
import { escapeShort } from '../raw/escape.js';
import type { Hex } from '../raw/types.js';
import type { BlockId, BlockTag } from '../sources/fetchBlock.js';

const TAGS: readonly BlockTag[] = ['latest', 'earliest', 'pending', 'safe', 'finalized'];

export function parseBlockId(text: string): BlockId {
  const s = text.trim().toLowerCase();
  const tag = TAGS.find((t) => t === s);
  if (tag !== undefined) return { kind: 'tag', tag };
  if (/^0x[0-9a-f]{64}$/.test(s)) return { kind: 'hash', hash: s as Hex };
  // A block number fits in 64 bits (the header's field): 16 hex digits, or its decimal.
  if (/^0x[0-9a-f]{1,16}$/.test(s)) return { kind: 'number', number: BigInt(s) };
  if (/^\d{1,20}$/.test(s) && BigInt(s) < 2n ** 64n) return { kind: 'number', number: BigInt(s) };
  const shown = escapeShort(text, 80);
  const why = /^0x[0-9a-f]*$/.test(s) ? `it has ${s.length - 2} hex digits (a number has 1 to 16, a hash 64)` : /^\d+$/.test(s) ? 'the number is larger than a block number can be (2^64 − 1)' : 'it is neither a number, a hash nor a tag';
  throw new UsageError(`'${shown}' is not a block: ${why}; give a number (19000000 or 0x121eac0), a block hash (0x and 64 hex digits) or ${TAGS.join(', ')}.`);
}
