/**
 * A command line without some options: `flags` alone, `valued` with their value (`--x v`, `--x=v`, and
 * for a one-letter option `-xv`). Words after `--` are kept as they are.
 */
export function withoutOptions(argv: readonly string[], flags: ReadonlySet<string>, valued: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const name = word.startsWith('--') ? word.split('=')[0]! : word.slice(0, 2);
    if (flags.has(word)) continue;
    if (valued.has(word)) {
      i++;
      continue;
    }
    // --x=v, and -xv (a one-letter option with its value joined).
    if (valued.has(name) && (word.startsWith('--') ? word.includes('=') : word.length > 2)) continue;
    out.push(word);
  }
  return out;
}
