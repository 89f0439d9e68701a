/**
 * The Net changes section's words, the same for the text view and the HTML report (which reads them
 * from the --json document): who ended up with what, each holder's net change per asset, the actor
 * first. Pure; each view names addresses and symbols its own way (escaped for a terminal, or not).
 */
import { formatUnits, formatValueShort, groupDigits } from '../format/format.js';

/** A net change, from the model (NetChange) or from --json (its decimal `change` read back). */
export interface NetChangeFacts {
  readonly holder: string;
  readonly asset: string;
  readonly standard: string;
  readonly tokenId?: string;
  readonly change: bigint;
  readonly symbol?: string;
  readonly decimals?: number;
  /** A wrap whose ether was not seen touched it (NetChange.incomplete). */
  readonly incomplete?: boolean;
}

export interface NetChangeNames {
  /** A holder or a token without a symbol, short, with its label. */
  readonly address: (a: string) => string;
  readonly symbol: (s: string) => string;
}

export interface NetChangePart {
  readonly text: string;
  readonly negative: boolean;
}

export interface NetChangeRow {
  /** The holder as named. */
  readonly who: string;
  /** "(mint/burn)" for the zero address, then "(actor)" for the actor; words a view may dim. */
  readonly marks: readonly string[];
  readonly parts: readonly NetChangePart[];
}

/** One net change: signed, exact, with the token's symbol and decimals where known. */
export function changeText(n: NetChangeFacts, names: NetChangeNames): string {
  const sign = n.change < 0n ? '−' : '+';
  const size = n.change < 0n ? -n.change : n.change;
  // Exact, as the Transfers section: wei below a microether.
  if (n.standard === 'ETH') return `${sign}${formatValueShort(size)}`;
  const token = n.symbol !== undefined ? names.symbol(n.symbol) : names.address(n.asset);
  if (n.standard === 'ERC-721') return `${sign}${token} #${n.tokenId}`;
  if (n.standard === 'ERC-1155') return `${sign}${groupDigits(size)} × ${token} #${n.tokenId}`;
  return n.decimals !== undefined ? `${sign}${formatUnits(size, n.decimals)} ${token}` : `${sign}${groupDigits(size)} base units of ${token}`;
}

/**
 * What the Transfers and Net changes sections say where ether moved inside the calls is not known (no
 * call tree; --json: etherInsideCallsKnown false), in the text view and the report alike.
 */
export const NO_TREE_ETHER = {
  transfers: 'no call trace: ether moved inside the calls is not known and not listed (only the transaction\'s own value is)',
  netChanges: 'no call trace: ether moved inside the calls is not known, so the ETH changes below may be incomplete',
  /** Said too where a change is marked (NetChange.incomplete). */
  incomplete: 'changes marked (incomplete): a Deposit or Withdrawal of a token not known as wrapped ether, whose ether was not seen, is not counted in them',
  fundFlow: 'no call trace: ether moved inside the calls is not known and not drawn (only the transaction\'s own value is)',
} as const;

/** The section's title ("Net changes (3 addresses)") and one row per holder, in the order given; null when nothing changed. */
export function describeNetChanges(changes: readonly NetChangeFacts[], actor: string | null | undefined, names: NetChangeNames): { readonly title: string; readonly rows: NetChangeRow[]; readonly incomplete: boolean } | null {
  if (changes.length === 0) return null;
  const holders = [...new Set(changes.map((n) => n.holder))];
  const rows = holders.map((holder) => ({
    who: names.address(holder),
    marks: [...(/^0x0{40}$/.test(holder) ? ['(mint/burn)'] : []), ...(holder === actor ? ['(actor)'] : [])],
    parts: changes.filter((n) => n.holder === holder).map((n) => ({ text: `${changeText(n, names)}${n.incomplete === true ? ' (incomplete)' : ''}`, negative: n.change < 0n })),
  }));
  const incomplete = changes.some((n) => n.incomplete === true);
  return { title: `Net changes (${holders.length} ${holders.length === 1 ? 'address' : 'addresses'})`, rows, incomplete };
}
