/**
 * What `--override-code <addr>:<code>` names, checked before any request: runtime hex (0x and hex
 * digits), a file (a Foundry or Hardhat artifact JSON: its deployed bytecode; else a file of hex), or
 * the name of a contract of the project in the working directory (looked up once its artifacts are
 * loaded). An artifact's immutables are filled in later, from the code at the address (fillImmutables.ts).
 */
import { readFileSync, statSync } from 'node:fs';
import { parseAbiFile } from '../decode/loadAbis.js';
import { UsageError } from '../errors.js';
import { escapeShort } from '../raw/escape.js';
import type { Hex } from '../raw/types.js';
import type { CodeSource } from '../pipeline/codeSource.js';


const MAX_FILE_BYTES = 32 * 1024 * 1024;

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** An artifact JSON's runtime code, or a file of hex; anything else names the file and what is wrong. */
function fromFile(path: string, shown: string): CodeSource {
  let text: string;
  try {
    if (statSync(path).size > MAX_FILE_BYTES) throw new Error('too large');
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new UsageError(`--override-code ${shown}: cannot read it (${err instanceof Error && err.message === 'too large' ? 'larger than 32 MiB' : 'permission or I/O error'}).`);
  }
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    let a: ReturnType<typeof parseAbiFile>;
    try {
      a = parseAbiFile(trimmed, path, 'abi');
    } catch (err) {
      throw new UsageError(`--override-code ${shown}: ${err instanceof Error ? err.message : 'malformed'}; expected a Foundry or Hardhat artifact, or a file of hex.`);
    }
    if (a.deployedBytecode === undefined) throw new UsageError(`--override-code ${shown}: the artifact has no deployed bytecode (an interface or an abstract contract?).`);
    return { kind: 'artifact', file: path, artifact: { name: a.name, code: a.deployedBytecode, masks: a.runtimeMasks ?? [] } };
  }
  const hex = trimmed.startsWith('0x') ? trimmed : `0x${trimmed}`;
  if (!/^0x([0-9a-fA-F]{2})+$/.test(hex)) throw new UsageError(`--override-code ${shown}: neither an artifact JSON nor runtime code in hex.`);
  return { kind: 'hex', code: hex.toLowerCase() as Hex };
}

/** The `<code>` part of `--override-code <addr>:<code>`. */
export function parseOverrideCode(text: string): CodeSource {
  const s = text.trim();
  const shown = escapeShort(s, 80);
  if (/^0x/i.test(s)) {
    if (!/^0x([0-9a-fA-F]{2})*$/.test(s)) throw new UsageError(`--override-code takes runtime code as hex bytes (0x and an even number of hex digits), a file or a contract name, not '${escapeShort(s, 40)}'.`);
    return { kind: 'hex', code: s.toLowerCase() as Hex };
  }
  if (isFile(s)) return fromFile(s, shown);
  // Not a file: a contract name, unless it looks like a path (then the file is what is missing).
  if (!/^[A-Za-z_$][A-Za-z0-9_$]{0,127}$/.test(s)) throw new UsageError(`--override-code ${shown}: no such file.`);
  return { kind: 'name', name: s };
}
