/**
 * `--state-override <file.json>`: geth's state-override object as eth_call takes it,
 * `{address: {balance, nonce, code, state, stateDiff}}`, checked field by field before any request and
 * written back in the form the node and txray's EVM take (lower-case addresses, hex quantities,
 * 32-byte words). Every failure is one line naming the file and the field (exit 2).
 */
import { readFileSync, statSync } from 'node:fs';
import { parseAmount } from '../decode/encodeCall.js';
import { UsageError } from '../errors.js';
import { escapeShort } from '../raw/escape.js';
import type { RpcAccountStateOverride, RpcStateMapping } from 'viem';
import { isAddress, isRecord, lowerHex, toQuantity } from '../raw/hex.js';
import type { Hex, StateOverride } from '../raw/types.js';

const MAX_FILE_BYTES = 16 * 1024 * 1024;
const FIELDS = ['balance', 'nonce', 'code', 'state', 'stateDiff'];
const MAX_UINT256 = 2n ** 256n - 1n;

/** A number as JSON or text (decimal or 0x-hex), at most `max`; undefined where it is not one. */
function numberOf(v: unknown, max: bigint): bigint | undefined {
  const n = typeof v === 'number' && Number.isSafeInteger(v) ? BigInt(v) : typeof v === 'string' ? parseAmount(v) : null;
  return n === null || n < 0n || n > max ? undefined : n;
}

function words(v: unknown, bad: (what: string) => never, field: string): RpcStateMapping {
  if (!isRecord(v)) bad(`${field} is not an object of slot → value`);
  const out: RpcStateMapping = {};
  for (const [slot, value] of Object.entries(v)) {
    const k = numberOf(slot, MAX_UINT256);
    const w = numberOf(value, MAX_UINT256);
    if (k === undefined || w === undefined) bad(`${field} ${escapeShort(slot, 70)}: a slot and a value are 32-byte words (numbers or 0x-hex)`);
    out[`0x${k.toString(16).padStart(64, '0')}`] = `0x${w.toString(16).padStart(64, '0')}`;
  }
  return out;
}

function accountOf(o: unknown, bad: (what: string) => never): RpcAccountStateOverride {
  if (!isRecord(o)) bad('is not an object');
  const out: RpcAccountStateOverride = {};
  for (const key of Object.keys(o)) if (!FIELDS.includes(key)) bad(`has an unknown field '${escapeShort(key, 30)}' (${FIELDS.join(', ')})`);
  if (o.balance !== undefined) {
    const n = numberOf(o.balance, MAX_UINT256);
    if (n === undefined) bad('balance is not an amount in wei');
    out.balance = toQuantity(n);
  }
  if (o.nonce !== undefined) {
    const n = numberOf(o.nonce, 2n ** 64n - 1n);
    if (n === undefined) bad('nonce is not a nonce (0 to 2^64-1)');
    out.nonce = toQuantity(n);
  }
  if (o.code !== undefined) {
    if (typeof o.code !== 'string' || !/^0x([0-9a-fA-F]{2})*$/.test(o.code)) bad('code is not hex bytes');
    out.code = `0x${o.code.slice(2).toLowerCase()}`;
  }
  if (o.state !== undefined && o.stateDiff !== undefined) bad('has both state and stateDiff (one replaces the storage, the other changes it)');
  if (o.state !== undefined) out.state = words(o.state, bad, 'state');
  if (o.stateDiff !== undefined) out.stateDiff = words(o.stateDiff, bad, 'stateDiff');
  return out;
}

/** The file's overrides by lower-case address. */
export function parseStateOverride(path: string): StateOverride {
  const shown = escapeShort(path, 80);
  let doc: unknown;
  try {
    if (statSync(path).size > MAX_FILE_BYTES) throw new UsageError(`--state-override ${shown}: larger than 16 MiB.`);
    doc = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`--state-override ${shown}: ${err instanceof SyntaxError ? 'not valid JSON' : 'no such file, or it cannot be read'}.`);
  }
  if (!isRecord(doc)) throw new UsageError(`--state-override ${shown}: expected an object of address → {balance, nonce, code, state, stateDiff}.`);
  const out: Record<Hex, RpcAccountStateOverride> = {};
  for (const [address, o] of Object.entries(doc)) {
    const where = `--state-override ${shown}: ${escapeShort(address, 50)}`;
    const bad: (what: string) => never = (what) => {
      throw new UsageError(`${where} ${what}.`);
    };
    if (!isAddress(address)) bad('is not an address');
    out[lowerHex(address)] = accountOf(o, bad);
  }
  return out;
}
