/**
 * Keccak-256 (Ethereum's padding) with its permutation in WebAssembly. A re-execution hashes code,
 * storage keys and created addresses before V8 has optimised any JavaScript: a library's keccak then
 * runs in the interpreter and is most of a small run's EVM time, where V8 compiles this module's one
 * function at once to machine code. The module's bytes are written by scripts/lib/keccakWasm.mjs
 * (readable there; test/unit/wasmKeccak.test.ts checks that these are its output and that the hashes
 * agree with @noble/hashes).
 */
import * as inJs from './jsKeccak.js';

/** The module, base64. */
export const KECCAK_WASM =
  'AGFzbQEAAAABBQFgAX8AAwIBAAUDAQABBwkCAWgAAAFtAgAKtAgBsQgCOH4Cf0GQAyE6AkADQCAARQ0BIAEgOikDAIUhASACIDop' +
  'AwiFIQIgAyA6KQMQhSEDIAQgOikDGIUhBCAFIDopAyCFIQUgBiA6KQMohSEGIAcgOikDMIUhByAIIDopAziFIQggCSA6KQNAhSEJ' +
  'IAogOikDSIUhCiALIDopA1CFIQsgDCA6KQNYhSEMIA0gOikDYIUhDSAOIDopA2iFIQ4gDyA6KQNwhSEPIBAgOikDeIUhECARIDop' +
  'A4ABhSERQQAhOQNAIAEgBoUgC4UgEIUgFYUhMyACIAeFIAyFIBGFIBaFITQgAyAIhSANhSAShSAXhSE1IAQgCYUgDoUgE4UgGIUh' +
  'NiAFIAqFIA+FIBSFIBmFITcgNyA0QgGJhSE4IAEgOIUhASAGIDiFIQYgCyA4hSELIBAgOIUhECAVIDiFIRUgMyA1QgGJhSE4IAIg' +
  'OIUhAiAHIDiFIQcgDCA4hSEMIBEgOIUhESAWIDiFIRYgNCA2QgGJhSE4IAMgOIUhAyAIIDiFIQggDSA4hSENIBIgOIUhEiAXIDiF' +
  'IRcgNSA3QgGJhSE4IAQgOIUhBCAJIDiFIQkgDiA4hSEOIBMgOIUhEyAYIDiFIRggNiAzQgGJhSE4IAUgOIUhBSAKIDiFIQogDyA4' +
  'hSEPIBQgOIUhFCAZIDiFIRkgASEaIAZCJIkhKiALQgOJISEgEEIpiSExIBVCEokhKCACQgGJISQgB0IsiSEbIAxCCokhKyARQi2J' +
  'ISIgFkICiSEyIANCPokhLiAIQgaJISUgDUIriSEcIBJCD4khLCAXQj2JISMgBEIciSEfIAlCN4khLyAOQhmJISYgE0IViSEdIBhC' +
  'OIkhLSAFQhuJISkgCkIUiSEgIA9CJ4khMCAUQgiJIScgGUIOiSEeIBtCf4UgHIMgGoUhASAcQn+FIB2DIBuFIQIgHUJ/hSAegyAc' +
  'hSEDIB5Cf4UgGoMgHYUhBCAaQn+FIBuDIB6FIQUgIEJ/hSAhgyAfhSEGICFCf4UgIoMgIIUhByAiQn+FICODICGFIQggI0J/hSAf' +
  'gyAihSEJIB9Cf4UgIIMgI4UhCiAlQn+FICaDICSFIQsgJkJ/hSAngyAlhSEMICdCf4UgKIMgJoUhDSAoQn+FICSDICeFIQ4gJEJ/' +
  'hSAlgyAohSEPICpCf4UgK4MgKYUhECArQn+FICyDICqFIREgLEJ/hSAtgyArhSESIC1Cf4UgKYMgLIUhEyApQn+FICqDIC2FIRQg' +
  'L0J/hSAwgyAuhSEVIDBCf4UgMYMgL4UhFiAxQn+FIDKDIDCFIRcgMkJ/hSAugyAxhSEYIC5Cf4UgL4MgMoUhGSABIDlBA3QpA8gB' +
  'hSEBIDlBAWoiOUEYSQ0ACyA6QYgBaiE6IABBAWshAAwACwtBACABNwMAQQAgAjcDCEEAIAM3AxBBACAENwMYCwvIAQEAQcgBC8AB' +
  'AQAAAAAAAACCgAAAAAAAAIqAAAAAAACAAIAAgAAAAICLgAAAAAAAAAEAAIAAAAAAgYAAgAAAAIAJgAAAAAAAgIoAAAAAAAAAiAAA' +
  'AAAAAAAJgACAAAAAAAoAAIAAAAAAi4AAgAAAAACLAAAAAAAAgImAAAAAAACAA4AAAAAAAIACgAAAAAAAgIAAAAAAAACACoAAAAAA' +
  'AAAKAACAAAAAgIGAAIAAAACAgIAAAAAAAIABAACAAAAAAAiAAIAAAACA';

/** Where the module reads its blocks (scripts/lib/keccakWasm.mjs: DATA_AT), and their size. */
const DATA_AT = 400;
const RATE = 136;

/** A Node without WebAssembly (`--jitless`) hashes with the JavaScript permutation: offline commands still work. */
const NO_WASM = typeof WebAssembly === 'undefined';

let memory: WebAssembly.Memory | undefined;
let bytes = new Uint8Array(0);
let absorb: (blocks: number) => void = () => undefined;

function setUp(): WebAssembly.Memory {
  const { exports } = new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(KECCAK_WASM, 'base64')));
  absorb = exports.h as (blocks: number) => void;
  return exports.m as WebAssembly.Memory;
}

export function keccak_256(data: Uint8Array): Uint8Array {
  if (NO_WASM) return inJs.keccak_256(data);
  room(data.length);
  bytes.set(data, DATA_AT);
  return hashOf(data.length).slice();
}

/**
 * keccak256 of the characters of `text` from `start` on, each taken as one byte (ASCII or Latin-1
 * text: an address's hex digits), without a copy in between: a view of the module's memory, valid
 * until the next hash.
 */
export function keccakOfLatin1(text: string, start = 0): Uint8Array {
  if (NO_WASM) return inJs.keccakOfLatin1(text, start);
  const length = Math.max(0, text.length - start);
  room(length);
  for (let i = 0; i < length; i++) bytes[DATA_AT + i] = text.charCodeAt(start + i);
  return hashOf(length);
}

/** Makes the module's memory hold `length` bytes of data and their padding. */
function room(length: number): void {
  const m = (memory ??= setUp());
  const end = DATA_AT + (Math.floor(length / RATE) + 1) * RATE;
  if (m.buffer.byteLength < end) m.grow(Math.ceil((end - m.buffer.byteLength) / 65536));
  if (bytes.buffer !== m.buffer) bytes = new Uint8Array(m.buffer);
}

/** Pads the `length` bytes of data in place and hashes them: the digest, as a view of the module's memory. */
function hashOf(length: number): Uint8Array {
  const blocks = Math.floor(length / RATE) + 1;
  const end = DATA_AT + blocks * RATE;
  // Keccak's padding (0x01 … 0x80, not SHA-3's 0x06): the last block holds the rest of the data.
  bytes.fill(0, DATA_AT + length, end);
  bytes[DATA_AT + length] = 0x01;
  bytes[end - 1] = length % RATE === RATE - 1 ? 0x81 : 0x80; // the 0x01 may be the block's last byte too
  absorb(blocks);
  return bytes.subarray(0, 32);
}
