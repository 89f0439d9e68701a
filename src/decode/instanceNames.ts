/**
 * Two deployments of one contract in one view read the same ("Token::transfer" twice): where a name is
 * borne by more than one address the view shows, each of them gets a tag that tells them apart — the
 * token's own symbol where symbol() answered one that no other of them shares, else its short address.
 */

/** The longest symbol that tags an instance. */
const MAX_TAG = 16;

type TokenSymbols = ReadonlyMap<string, { readonly symbol: string | null }>;

/** Lower-case address → its tag ("DAI", "0x9599…07B1"), for the shown addresses whose label another shown address bears. */
export function instanceNames(labels: ReadonlyMap<string, string>, checksums: ReadonlyMap<string, string>, tokens: TokenSymbols | undefined): Map<string, string> {
  const byName = new Map<string, string[]>();
  for (const address of checksums.keys()) {
    const name = labels.get(address);
    if (name === undefined) continue;
    const same = byName.get(name);
    if (same === undefined) byName.set(name, [address]);
    else same.push(address);
  }
  const out = new Map<string, string>();
  for (const same of byName.values()) {
    if (same.length < 2) continue;
    const symbols = same.map((a) => tokens?.get(a)?.symbol ?? null);
    same.forEach((address, i) => {
      const symbol = symbols[i];
      // A symbol is the token's own text: one too long to be a tag gives way to the address.
      const unique = symbol != null && symbol !== '' && symbol.length <= MAX_TAG && symbols.filter((s) => s === symbol).length === 1;
      const shown = checksums.get(address)!;
      out.set(address, unique ? symbol : `${shown.slice(0, 6)}…${shown.slice(-4)}`);
    });
  }
  return out;
}
