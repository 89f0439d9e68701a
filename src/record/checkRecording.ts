/**
 * A recording's shape, checked field by field before a replay trusts any of it: the file is hostile input
 * (another tool's JSON, a newer format, hand edits). The first failure is said in a few words.
 */
import { checkedAbi } from '../rpc/fetchOnline.js';
import { parseStorageLayout } from '../decode/nameStorage.js';
import { isAddress, isData, isRecord } from '../raw/hex.js';
import { RECORDING_FORMAT, RECORDING_VERSION, type Recording } from './types.js';

class Bad extends Error {}

function need(ok: boolean, why: string): asserts ok {
  if (!ok) throw new Bad(why);
}
const isInt = (v: unknown, min: number, max: number): boolean => typeof v === 'number' && Number.isSafeInteger(v) && v >= min && v <= max;
const KINDS = new Set(['unreachable', 'timeout', 'http', 'rate-limited', 'not-json', 'too-large', 'protocol', 'rpc-error', 'malformed']);

/** [key, answers] pairs, each answer checked by `answer`. */
function checkLists(v: unknown, what: string, answer: (a: unknown) => boolean): void {
  need(Array.isArray(v), `${what} is not a list`);
  for (const entry of v) {
    const answers: unknown = Array.isArray(entry) && entry.length === 2 && typeof entry[0] === 'string' ? entry[1] : undefined;
    need(Array.isArray(answers), `${what} holds an entry that is not [key, answers]`);
    need(answers.every(answer), `${what} holds an answer of an unknown shape`);
  }
}

function rpcAnswer(a: unknown): boolean {
  if (!isRecord(a) || Object.keys(a).length !== 1) return false;
  if ('r' in a) return true;
  if ('e' in a) return typeof a.e === 'string';
  const f = a.f;
  return isRecord(f) && typeof f.kind === 'string' && KINDS.has(f.kind) && typeof f.message === 'string' && (f.code === undefined || isInt(f.code, -(2 ** 53), 2 ** 53)) && (f.data === undefined || isData(f.data));
}

const httpAnswer = (a: unknown): boolean => isRecord(a) && isInt(a.status, 100, 599) && 'json' in a && (a.retryAfterMs === null || isInt(a.retryAfterMs, 0, 1e9));

/** Every ABI item as the ABIs txray reads from disk have them: each function, event, error or constructor with checked names and types. */
function abiOk(abi: unknown): boolean {
  if (!Array.isArray(abi)) return false;
  return abi.every((item) => {
    if (!isRecord(item)) return false;
    if (item.type === 'fallback' || item.type === 'receive') return true;
    // checkedAbi keeps what a name can be looked up by: a constructor and an anonymous event are checked as if named.
    const asItem = item.type === 'constructor' ? { ...item, type: 'function', name: 'constructor' } : { ...item, anonymous: false };
    return checkedAbi([asItem]).length === 1;
  });
}

function codeDebugOk(c: unknown): boolean {
  if (c === undefined || c === null) return true;
  if (!isRecord(c) || typeof c.map !== 'string' || typeof c.viaIR !== 'boolean' || !isInt(c.count, 0, 1e6) || !isRecord(c.files)) return false;
  // An AST outline is read as hostile by functionDefinitions: here only its place is checked (by id, an object or null).
  if (c.asts !== undefined && !(isRecord(c.asts) && Object.entries(c.asts).every(([id, a]) => /^\d{1,6}$/.test(id) && (a === null || isRecord(a))))) return false;
  return Object.entries(c.files).every(
    ([id, f]) => /^\d{1,6}$/.test(id) && (f === null || (isRecord(f) && typeof f.path === 'string' && (typeof f.text === 'string' || typeof f.base64 === 'string' || f.edited === true))),
  );
}

function artifactOk(a: unknown): boolean {
  if (!isRecord(a) || typeof a.name !== 'string' || a.name.length > 200 || (a.source !== 'abi' && a.source !== 'project') || !abiOk(a.abi)) return false;
  if ((a.bytecode !== undefined && !isData(a.bytecode)) || (a.deployedBytecode !== undefined && !isData(a.deployedBytecode))) return false;
  if (a.runtimeMasks !== undefined && !(Array.isArray(a.runtimeMasks) && a.runtimeMasks.every((r) => Array.isArray(r) && r.length === 2 && isInt(r[0], 0, 1e6) && isInt(r[1], 1, 32)))) return false;
  if (a.storageLayout !== undefined && parseStorageLayout(a.storageLayout) === undefined) return false;
  if (a.transientStorageLayout !== undefined && parseStorageLayout(a.transientStorageLayout) === undefined) return false;
  if (a.override !== undefined && a.override !== true) return false;
  if (a.file !== undefined && !(typeof a.file === 'string' && a.file.length <= 1000)) return false;
  return a.debug === undefined || (isRecord(a.debug) && codeDebugOk(a.debug.runtime) && codeDebugOk(a.debug.creation));
}

function checkDisk(d: unknown): void {
  if (d === null) return;
  need(isRecord(d) && Array.isArray(d.labels) && Array.isArray(d.artifacts), 'its disk part is not {labels, artifacts}');
  need(d.labels.every((l) => Array.isArray(l) && l.length === 2 && isAddress(l[0]) && typeof l[1] === 'string' && l[1] !== ''), 'a label is not [address, name]');
  need(d.artifacts.every(artifactOk), 'an artifact is not one txray reads');
}

/** How the reason for a recording of a newer format begins: its advice is its own (replay it with that txray). */
export const NEWER = 'a newer txray made it';

function checkShape(d: unknown): asserts d is Recording {
  need(isRecord(d) && d.format === RECORDING_FORMAT, `not a txray recording (its first field is not "format": "${RECORDING_FORMAT}")`);
  need(isInt(d.version, 1, 1e6), 'its format version is not a number');
  need(d.version === RECORDING_VERSION, `${NEWER} (format version ${String(d.version)}; this one reads version ${RECORDING_VERSION}): replay it with that txray`);
  const endpoint = d.endpoint;
  need(typeof d.txray === 'string' && typeof d.recorded === 'string' && typeof endpoint === 'string', 'its txray, recorded or endpoint field is missing');
  need(/^https?:\/\/[^/@?#\s]+$/.test(endpoint), 'its endpoint is not scheme://host:port');
  need(d.chainId === null || isInt(d.chainId, 0, 2 ** 53), 'its chain id is not a number');
  const argv = d.argv;
  need(Array.isArray(argv) && argv.length <= 10_000 && argv.every((w) => typeof w === 'string'), 'its command line is not a list of words');
  // A replay of a replay would read files without end; completions read no answers; the debugger records
  // nothing and would ask the node and open the terminal: a recording naming it is not one txray wrote.
  const command: unknown = argv[0];
  need(command !== 'replay' && command !== 'completions' && command !== 'debug', 'its command is not one txray records');
  need(d.stdin === null || typeof d.stdin === 'string', 'its stdin is not text');
  const made = d.made;
  need(isRecord(made) && typeof made.state === 'boolean' && typeof made.online === 'boolean' && typeof made.etherscan === 'boolean', 'its "made" field is not three flags');
  checkLists(d.rpc, 'its rpc part', rpcAnswer);
  checkLists(d.http, 'its http part', httpAnswer);
  checkDisk(d.disk);
}

/** The document as a Recording, or an error message (a few words, no full stop). */
export function checkRecording(doc: unknown): Recording | string {
  try {
    checkShape(doc);
    return doc;
  } catch (err) {
    if (err instanceof Bad) return err.message;
    throw err;
  }
}
