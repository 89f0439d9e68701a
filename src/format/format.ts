/** Exact first, friendly second: number formatting for text output. */
import type { AssetAmount } from '../model/types.js';
import type { Hex } from '../raw/types.js';

/** 1234567 → "1,234,567" (a decimal string is grouped as it is). */
export function groupDigits(n: bigint | number | string): string {
  const s = n.toString();
  const neg = s.startsWith('-');
  const digits = neg ? s.slice(1) : s;
  if (digits.length <= 3) return s;
  let out = digits.slice(0, digits.length % 3 || 3);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return neg ? `-${out}` : out;
}

/** An exact decimal of `value / 10^decimals`, trailing zeros trimmed: 1500000000000000000n, 18 → "1.5". */
export function formatUnits(value: bigint, decimals: number): string {
  const neg = value < 0n;
  const abs = neg ? -value : value;
  const base = 10n ** BigInt(decimals);
  const whole = abs / base;
  const frac = (abs % base).toString().padStart(decimals, '0').replace(/0+$/, '');
  return `${neg ? '-' : ''}${groupDigits(whole)}${frac ? `.${frac}` : ''}`;
}

/** "1.5 ETH"; with the exact wei beside it when the ETH figure has more than 6 decimals. */
export function formatEth(wei: bigint): string {
  const eth = `${formatUnits(wei, 18)} ETH`;
  return wei % 10n ** 12n === 0n ? eth : `${eth} (${groupDigits(wei)} wei)`;
}

/** Compact but exact, for the call tree: "10 wei" below a microether, else "1.5 ETH". */
export function formatValueShort(wei: bigint): string {
  return wei < 10n ** 12n ? `${groupDigits(wei)} wei` : `${formatUnits(wei, 18)} ETH`;
}

export const formatGwei = (wei: bigint): string => `${formatUnits(wei, 9)} gwei`;

export function percent(part: bigint, whole: bigint): string {
  if (whole === 0n) return '–';
  const tenths = (part * 1000n) / whole;
  return `${tenths / 10n}.${tenths % 10n}%`;
}

/** Hex shortened for text: "0x49207769…6b696e64 (41 bytes)"; short values stay whole. */
export function shortHex(hex: Hex, keep = 8): string {
  const digits = hex.length - 2;
  if (digits <= keep * 4 + 2) return hex;
  return `${hex.slice(0, 2 + keep)}…${hex.slice(-keep)} (${groupDigits(Math.floor(digits / 2))} bytes)`;
}

/** A transaction hash shortened for tables and message prefixes: 0x454dcd21…101540. */
export const shortHash = (h: string): string => `${h.slice(0, 10)}…${h.slice(-6)}`;

/** An address shortened for tight lines, the one rule every view uses: 0x5FbD…0aa3. */
export const shortAddress = (a: string): string => `${a.slice(0, 6)}…${a.slice(-4)}`;

export function formatBytes(n: number): string {
  return `${groupDigits(n)} ${n === 1 ? 'byte' : 'bytes'}`;
}

export const TX_TYPES: Readonly<Record<string, string>> = {
  '0x0': 'legacy',
  '0x1': 'access list (EIP-2930)',
  '0x2': 'EIP-1559',
  '0x3': 'blob (EIP-4844)',
  '0x4': 'set code (EIP-7702)',
};

/** An amount as a person reads it: the token's symbol and decimals where known, marked "~" where digits were left out. */
export function amountText(a: AssetAmount, nameOf?: (address: string) => string | undefined): string {
  // Below a microether, wei say it plainly ("9 wei", not eighteen decimals).
  if (a.standard === 'ETH') return a.amount < 10n ** 12n ? `${groupDigits(a.amount)} wei` : `${shortNumber(a.amount, 18)} ETH`;
  const name = a.symbol ?? nameOf?.(a.asset) ?? shortAddress(a.asset);
  if (a.standard === 'ERC-721') return `${name} #${a.tokenId ?? '?'}`;
  if (a.standard === 'ERC-1155') return `${groupDigits(a.amount)} × ${name} #${a.tokenId ?? '?'}`;
  // Without its decimals an amount is only its base units, said so: never scaled by a guess.
  return a.decimals !== undefined ? `${shortNumber(a.amount, a.decimals)} ${name}` : `${groupDigits(a.amount)} base units of ${name}`;
}

/**
 * At most two decimals at or above 1, else four significant digits; a number cut short starts with "~"
 * (it is never rounded up to a figure the chain did not move).
 */
export function shortNumber(amount: bigint, decimals: number): string {
  const exact = formatUnits(amount, decimals);
  const [whole, fraction = ''] = exact.split('.');
  if (fraction === '') return exact;
  const keep = whole !== '0' ? 2 : (/^0*/.exec(fraction)![0].length + 4);
  if (fraction.length <= keep) return exact;
  const cut = fraction.slice(0, keep).replace(/0+$/, '');
  return `~${whole}${cut === '' ? '' : `.${cut}`}`;
}
