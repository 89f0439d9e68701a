/** What txray says of a hash the node knows as no transaction: the text view's line (and, for a block's hash, the warning). */

/** A transaction hash that is a block's: the warning (stderr, --json) and the text view's line below the status. */
export const blockHashWords = (block: bigint, hash: string): string => `that is the hash of block ${block}, not of a transaction: txray block ${hash}`;

/** Where the node knows no transaction or block with this hash. */
export const notKnownWords = (where: string): string => `${where} does not know this transaction: wrong chain, not broadcast yet, or dropped.`;
