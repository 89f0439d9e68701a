/**
 * Everything decoding needs, loaded once per run: --abi files, the project's artifacts, the built-in
 * ABIs and labels, --labels and --labels-file, and the sharded signature database (read lazily).
 * Imported on demand, so --help and usage errors never load viem.
 */
import { readFileSync } from 'node:fs';
import { UsageError } from '../errors.js';
import type { DecodedModel, DecodedState, InspectModel } from '../model/types.js';
import { isAddress } from '../raw/hex.js';
import { escapeShort } from '../raw/escape.js';
import { AbiIndex, type Artifact } from './abiIndex.js';
import { type ByCode, decodeModel } from './decodeModel.js';
import { decodeLogs, type LogDecoding } from './decodeLogs.js';
import { bookToken, withChecksums } from './labels.js';
import { instanceNames } from './instanceNames.js';
import { loadAbiPaths, loadProjectAbis } from './loadAbis.js';
import { matchArtifact } from '../locate/matchCode.js';
import { tokensOfLogs } from './transfers.js';
import { decodeDecimals, decodeSymbol, keyCandidates, nameStorage, stateAddresses, tokenBalances } from './decodeState.js';
import type { VerifiedLayouts } from './nameStorage.js';
import type { TokenAnswers } from '../rpc/fetchTokenMeta.js';
import type { Hex, RpcLog } from '../raw/types.js';
import { BUILTIN_LABELS } from './wellKnown.js';

export interface DecoderOptions {
  readonly abiPaths: readonly string[];
  readonly projectAbis: boolean;
  readonly cwd: string;
  /** FOUNDRY_PROFILE and FOUNDRY_OUT pick a Foundry project's artifacts, as Foundry does. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly labels: readonly string[];
  readonly labelsFile: string | undefined;
  /** The sharded signature database, or null to go without it. */
  readonly dbDir: URL | null;
  /**
   * The seam of what is read from disk (src/record/): given how to read it, what the decoder takes
   * (--record keeps what was read; a replay reads nothing). Absent: read from disk.
   */
  readonly parts?: (fromDisk: () => DecoderParts) => DecoderParts;
  /** How many of abiPaths, at their end, are --override-code's artifact files (their artifacts marked `override`). */
  readonly overrideFiles?: number;
}

/** What the decoder reads from disk: the artifacts (--abi, then the project's) and the labels (--labels-file, then --labels). */
export interface DecoderParts {
  readonly artifacts: readonly Artifact[];
  readonly labels: ReadonlyArray<readonly [string, string]>;
}

export interface Decoder {
  readonly index: AbiIndex;
  /**
   * A decoder for one input: the same names, over an overlay of the index (see AbiIndex.overlay), so
   * that what --online adds for this input decodes this input only.
   */
  forInput(): Decoder;
  /** `txray call --tx`: the same names without --override-code's artifact files (they name the new code, not the mined); null where there are none. */
  withoutOverrides?(): Decoder | null;
  /** Whether any artifact carries runtime code, so that asking the node for code can name contracts. */
  readonly canMatchCode: boolean;
  /** Names for addresses whose runtime code is a known artifact's. */
  nameByCode(codes: ReadonlyMap<string, Hex>): Map<string, string>;
  /** The name --labels, --labels-file or the address book gives an address (the decoded views' labels before any match by code). */
  labelOf(address: string): string | undefined;
  /** The artifact each address's runtime code is (lower-case addresses; see matchArtifact). */
  matchByCode(codes: ReadonlyMap<string, Hex>): Map<string, Artifact>;
  /** The receipt's logs alone (see decodeModel's `early`). */
  decodeLogs(logs: readonly RpcLog[]): LogDecoding;
  /** `byCode`: the artifacts matched by code (whose own names decide their contracts' calls, events and errors) and EIP-7702 delegated accounts → their delegates. */
  decode(model: InspectModel, extraLabels?: ReadonlyMap<string, string>, early?: LogDecoding, byCode?: ByCode): DecodedModel;
  /** ERC-20 transfers with their token's symbol and decimals, from `tokens` (symbol(), decimals()) or the address book. */
  withTokens(model: InspectModel, decoded: DecodedModel, tokens: TokenAnswers): DecodedModel;
  /**
   * --state: token balances (with what each token's symbol() and decimals() answered) and storage
   * names (by the artifacts' storage layouts, `codes` the contracts' runtime code; else by `verified`'s, --online's).
   */
  decodeState(model: InspectModel, decoded: DecodedModel, tokens: TokenAnswers, codes: ReadonlyMap<string, Hex>, verified?: VerifiedLayouts): DecodedModel;
}

/** "0xaddr:Name" → [address, name]. */
export function parseLabel(text: string, i: number): [string, string] {
  const colon = text.indexOf(':');
  const address = colon < 0 ? '' : text.slice(0, colon).trim();
  const name = colon < 0 ? '' : text.slice(colon + 1).trim();
  if (!isAddress(address) || name === '') throw new UsageError(`--labels #${i + 1} is not "0xADDRESS:Name" ('${escapeShort(text, 60)}').`);
  return [address.toLowerCase(), name];
}

function labelsFromFile(path: string): Array<[string, string]> {
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    const why = (err as { code?: string }).code === 'ENOENT' ? 'no such file' : err instanceof SyntaxError ? 'not valid JSON' : 'cannot read it';
    throw new UsageError(`--labels-file ${escapeShort(path, 80)}: ${why}; expected a JSON object {"0xaddress": "Name"}.`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    throw new UsageError(`--labels-file ${escapeShort(path, 80)}: expected a JSON object {"0xaddress": "Name"}.`);
  }
  return Object.entries(doc).map(([address, name], i) => {
    if (!isAddress(address) || typeof name !== 'string' || name.trim() === '') {
      throw new UsageError(`--labels-file ${escapeShort(path, 80)}: entry ${i + 1} is not "0xaddress": "Name".`);
    }
    return [address.toLowerCase(), name.trim()];
  });
}

/** Each token's symbol and decimals: as it answered symbol() and decimals(), else as the address book has them. */
function tokenMetaOf(model: InspectModel, decoded: DecodedModel, tokens: TokenAnswers, index: AbiIndex): Map<string, { symbol: string | null; decimals: number | null }> {
  const meta = new Map<string, { symbol: string | null; decimals: number | null }>([...tokens].map(([t, a]) => [t, { symbol: decodeSymbol(a.symbol), decimals: decodeDecimals(a.decimals) }]));
  // Tokens the address book knows were not asked: their symbol and decimals come from it.
  for (const token of [...decoded.transfers.map((t) => t.token), ...tokensOfLogs(model.receipt?.logs ?? [])]) {
    const known = token === undefined || meta.has(token.toLowerCase()) ? null : bookToken(model, index, token);
    if (known !== null) meta.set(token!.toLowerCase(), known);
  }
  return meta;
}

/** Throws UsageError for a bad --abi, --labels or --labels-file: called before any request. */
export function createDecoder(opts: DecoderOptions): Decoder {
  const fromDisk = (): DecoderParts => {
    const labels: Array<[string, string]> = opts.labelsFile === undefined ? [] : labelsFromFile(opts.labelsFile);
    labels.push(...opts.labels.map((l, i) => parseLabel(l, i)));
    const own = opts.abiPaths.length - (opts.overrideFiles ?? 0);
    const artifacts = [...loadAbiPaths(opts.abiPaths.slice(0, own)), ...loadAbiPaths(opts.abiPaths.slice(own)).map((a): Artifact => ({ ...a, override: true }))];
    if (opts.projectAbis) artifacts.push(...loadProjectAbis(opts.cwd, opts.env).artifacts);
    return { artifacts, labels };
  };
  const parts = opts.parts === undefined ? fromDisk() : opts.parts(fromDisk);
  return decoderOfParts(parts, opts.dbDir);
}

function decoderOfParts(parts: DecoderParts, dbDir: URL | null): Decoder {
  const labels = new Map<string, string>(Object.entries(BUILTIN_LABELS));
  for (const [a, n] of parts.labels) labels.set(a, n);
  const index = new AbiIndex(dbDir);
  for (const artifact of parts.artifacts) index.addArtifact(artifact);
  index.addBuiltins();
  const decoder = decoderOver(index, labels);
  return {
    ...decoder,
    // From the parts read once (a recording keeps one reading of the disk), not from the disk again.
    withoutOverrides: () => (parts.artifacts.some((a) => a.override) ? decoderOfParts({ ...parts, artifacts: parts.artifacts.filter((a) => !a.override) }, dbDir) : null),
  };
}

function matchesOf(codes: ReadonlyMap<string, Hex>, index: AbiIndex): Map<string, Artifact> {
  const out = new Map<string, Artifact>();
  for (const [address, code] of codes) {
    const artifact = matchArtifact(code, index.artifacts);
    if (artifact !== undefined) out.set(address.toLowerCase(), artifact);
  }
  return out;
}

function decoderOver(index: AbiIndex, labels: ReadonlyMap<string, string>): Decoder {
  return {
    index,
    forInput: () => decoderOver(index.overlay(), labels),
    canMatchCode: index.artifacts.some((a) => a.deployedBytecode !== undefined),
    nameByCode(codes) {
      return new Map([...matchesOf(codes, index)].map(([address, artifact]) => [address, artifact.name]));
    },
    matchByCode: (codes) => matchesOf(codes, index),
    labelOf: (address) => labels.get(address.toLowerCase()),
    decodeLogs: (logs) => decodeLogs(logs, index),
    decode: (model, extra, early, byCode) => decodeModel(model, index, extra === undefined ? labels : new Map([...extra, ...labels]), early, byCode),
    withTokens(model, decoded, tokens) {
      const meta = tokenMetaOf(model, decoded, tokens, index);
      // ERC-20 amounts carry their token's symbol and decimals where both are known (the views scale by them).
      const transfers = decoded.transfers.map((t) => {
        const m = t.kind === 'ERC-20' && t.token !== undefined ? meta.get(t.token.toLowerCase()) : undefined;
        // Past 36 decimals no real token goes: such an amount stays in base units.
        return m !== undefined && m.symbol !== null && m.decimals !== null && m.decimals <= 36 ? { ...t, symbol: m.symbol, decimals: m.decimals } : t;
      });
      return { ...decoded, transfers, tokens: meta, instances: instanceNames(decoded.labels, decoded.checksums, meta) };
    },
    decodeState(model, decoded, tokens, codes, verified) {
      if (model.state == null) return decoded;
      const meta = tokenMetaOf(model, decoded, tokens, index);
      const fns = [decoded.function, ...decoded.events];
      const { storage, layouts } = nameStorage(model, model.state, index.artifacts, codes, keyCandidates(model, fns), verified);
      const state: DecodedState = { tokens: tokenBalances(decoded.transfers, meta, model.tx?.from.toLowerCase()), storage, layouts };
      return { ...decoded, state, checksums: withChecksums(decoded.checksums, stateAddresses(model.state, state)) };
    },
  };
}
