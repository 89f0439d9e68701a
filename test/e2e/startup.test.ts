/**
 * How the shipped bin starts: the bundle compiled from its V8 code cache, and what happens when that
 * cache is missing, from another build, damaged, or made by another Node or under other V8 flags; and that a plain-HTTP lookup
 * does not load the Node modules it does not need (TLS and HTTPS, HTTP/2, node:http, crypto, child_process, assert, tty).
 * Answers come from a loopback server replaying what a real anvil said (scripts/warmup/answers.json).
 */
import { copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Handler, type RpcServer, startRpcServer } from '../support/rpcServer.js';
import { BIN, type RunResult, runTxray } from '../support/runTxray.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const answers = JSON.parse(readFileSync(join(ROOT, 'scripts/warmup/answers.json'), 'utf8')) as Record<string, Record<string, unknown>>;
const HASH = Object.keys(answers)[0]!;

/** Answers what the recorded node answered; anything else is unexpected (the server says so). */
const replay: Handler = ({ method, params }) => {
  const recorded = answers[String(params[0])];
  return recorded === undefined || !(method in recorded) ? undefined : { result: recorded[method] };
};

let server: RpcServer;
let copy: string;

const run = (bin: string, args: readonly string[], env: Record<string, string> = {}): Promise<RunResult> => runTxray(args, { NO_COLOR: '1', ...env }, undefined, undefined, bin);

/** What a cache whose bytes changed is called: refused by V8 where it checks them, else told by the loader's CRC-32. */
const BYTES_CHANGED = /^v2[02]\./.test(process.version) ? 'rejected' : 'damaged';

const cacheState = (r: RunResult): string | undefined => /code cache (\w+)/.exec(r.stderr)?.[1];

/** A fresh copy of bin/ and dist/ (the signature database linked), so the cache can be tampered with. */
function freshCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'txray-startup-'));
  cpSync(join(ROOT, 'bin'), join(dir, 'bin'), { recursive: true });
  cpSync(join(ROOT, 'dist/txray.cjs'), join(dir, 'dist/txray.cjs'));
  copyFileSync(join(ROOT, 'dist/txray.v8cache'), join(dir, 'dist/txray.v8cache'));
  for (const wasm of ['llhttp_simd.wasm', 'llhttp.wasm']) copyFileSync(join(ROOT, 'dist', wasm), join(dir, 'dist', wasm));
  symlinkSync(join(ROOT, 'dist/sigdb'), join(dir, 'dist/sigdb'));
  return dir;
}

/** Replace the cache file's first line (`<build id> <length of the rest> <CRC-32 of the rest> <node version>/<arch>`) by `edit`'s fields. */
function rewriteHeader(file: string, edit: (fields: string[]) => (string | undefined)[]): void {
  const bytes = readFileSync(file);
  const newline = bytes.indexOf(10);
  const fields = edit(bytes.subarray(0, newline).toString('latin1').split(' '));
  writeFileSync(file, Buffer.concat([Buffer.from(`${fields.join(' ')}\n`, 'latin1'), bytes.subarray(newline + 1)]));
}

beforeAll(async () => {
  server = await startRpcServer(replay);
  copy = freshCopy();
});

afterAll(async () => {
  await server.close();
  rmSync(copy, { recursive: true, force: true });
});

describe('the V8 code cache', () => {
  let expected: RunResult;
  beforeAll(async () => {
    expected = await run(BIN, [HASH, '-r', server.url]);
  });

  test('the build makes one and a lookup starts from it', async () => {
    expect(expected.code).toBe(0);
    expect(expected.stdout).toContain(`Transaction ${HASH}`);
    const r = await run(BIN, [HASH, '-r', server.url, '--debug']);
    expect(cacheState(r)).toBe('used');
    expect(r.stdout).toBe(expected.stdout);
  });

  test.each([
    ['absent', 'missing', (file: string) => rmSync(file)],
    ['absent', 'from another build', (file: string) => rewriteHeader(file, ([, length, crc, runtime]) => ['0123456789abcdef', length, crc, runtime])],
    ['rejected', 'made by another Node version', (file: string) => rewriteHeader(file, ([id, length, crc]) => [id, length, crc, 'v21.0.0/x64'])],
    ['rejected', 'made on another architecture', (file: string) => rewriteHeader(file, ([id, length, crc]) => [id, length, crc, `${process.version}/arm64`])],
    ['rejected', 'from before caches named their Node', (file: string) => rewriteHeader(file, ([id, length, crc]) => [id, length, crc])],
    // The length still right: V8's own checksum (--verify-snapshot-checksum, which bin/loadBundle.cjs sets on
    // Node 20 and 22) refuses it; on other versions the loader's CRC-32 does.
    [BYTES_CHANGED, 'damaged (bytes flipped)', (file: string) => {
      const bytes = readFileSync(file);
      for (let i = 4096; i < bytes.length; i += 997) bytes[i] = bytes[i]! ^ 0x5a;
      writeFileSync(file, bytes);
    }],
    [BYTES_CHANGED, 'one bit flipped near its end', (file: string) => {
      const bytes = readFileSync(file);
      bytes[bytes.length - 100] = bytes[bytes.length - 100]! ^ 1;
      writeFileSync(file, bytes);
    }],
    ['damaged', 'cut short', (file: string) => writeFileSync(file, readFileSync(file).subarray(0, 50_000))],
  ])('a cache that is %s (%s): the same answer, compiled from source', async (state, _what, spoil) => {
    const dir = freshCopy();
    try {
      spoil(join(dir, 'dist/txray.v8cache'));
      const r = await run(join(dir, 'bin/txray.cjs'), [HASH, '-r', server.url, '--debug']);
      expect(r.code).toBe(0);
      expect(cacheState(r)).toBe(state);
      expect(r.stdout).toBe(expected.stdout);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a cache V8 refuses (made under other V8 flags): rejected, the same answer', async () => {
    // Any V8 flag changes V8's flag hash (as another Node version changes its version hash).
    const r = await run(BIN, [HASH, '-r', server.url, '--debug'], { NODE_OPTIONS: '--max-old-space-size=3000' });
    expect(r.code).toBe(0);
    expect(cacheState(r)).toBe('rejected');
    expect(r.stdout).toBe(expected.stdout);
  });

  test('no bundle at all: one line, exit 70', async () => {
    const dir = freshCopy();
    try {
      rmSync(join(dir, 'dist'), { recursive: true, force: true });
      const r = await run(join(dir, 'bin/txray.cjs'), [HASH, '-r', server.url]);
      expect(r.code).toBe(70);
      expect(r.stderr).toBe('txray: not built yet; run `npm run build` (or `npm ci`, which builds) first.\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('HTTPS: TLS is loaded when the URL asks for it', () => {
  const TLS = join(ROOT, 'test/support/tls/');
  let tlsServer: RpcServer;
  beforeAll(async () => {
    tlsServer = await startRpcServer(replay, { tls: { key: readFileSync(`${TLS}key.pem`), cert: readFileSync(`${TLS}cert.pem`) } });
  });
  afterAll(() => tlsServer.close());

  test('a node whose certificate is trusted: the same answer as over HTTP', async () => {
    const plain = await run(BIN, [HASH, '-r', server.url]);
    const r = await run(BIN, [HASH, '-r', tlsServer.url], { NODE_EXTRA_CA_CERTS: `${TLS}cert.pem` });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout.replace(tlsServer.url, 'URL')).toBe(plain.stdout.replace(server.url, 'URL'));
  });

  test('a self-signed certificate nobody trusts: one line, exit 5', async () => {
    const r = await run(BIN, [HASH, '-r', tlsServer.url], { NODE_EXTRA_CA_CERTS: '' });
    expect(r.code).toBe(5);
    expect(r.stderr).toBe(`txray: TLS failure talking to ${tlsServer.url} (DEPTH_ZERO_SELF_SIGNED_CERT): check the certificate or use the right scheme.\n`);
    expect(r.stdout).toBe('');
  });
});

test('a plain-HTTP lookup loads neither TLS, HTTPS, HTTP/2, node:http, crypto, child_process, assert nor tty', async () => {
  const hook = join(copy, 'modules.cjs');
  const list = join(copy, 'modules.txt');
  writeFileSync(hook, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(list)}, process.moduleLoadList.join('\\n')));\n`);
  const r = await run(BIN, [HASH, '-r', server.url, '--json'], { NODE_OPTIONS: `--require ${hook}` });
  expect(r.code).toBe(0);
  const loaded = readFileSync(list, 'utf8').split('\n');
  expect(loaded).toContain('NativeModule net'); // the hook saw the lookup's modules (undici's sockets)
  // (tty: chalk loads it, and --json never needs chalk; stdout here is a pipe.)
  for (const name of ['tls', 'https', 'http2', 'http', 'crypto', 'child_process', 'assert', 'tty']) expect(loaded).not.toContain(`NativeModule ${name}`);
});

test("undici's HTTP parser is read from its own file on the first connection, not compiled with the bundle by every run (nor its FormData code)", async () => {
  const undici = join(ROOT, 'node_modules/undici/lib/llhttp/');
  const bundle = readFileSync(join(ROOT, 'dist/txray.cjs'), 'utf8');
  for (const [module, file] of [['llhttp_simd-wasm.js', 'llhttp_simd.wasm'], ['llhttp-wasm.js', 'llhttp.wasm']] as const) {
    const base64 = /wasmBase64 = '([A-Za-z0-9+/=]+)'/.exec(readFileSync(join(undici, module), 'utf8'))![1]!;
    expect(readFileSync(join(ROOT, 'dist', file))).toEqual(Buffer.from(base64, 'base64'));
    expect(bundle).not.toContain(base64.slice(0, 200));
  }
  // Nor fetch's FormData body code, which undici reaches only for a FormData body (txray sends JSON text).
  expect(bundle).not.toContain('multipart/form-data');
  // Without the files, what makes no connection still runs; a lookup uses them.
  const bare = mkdtempSync(join(tmpdir(), 'txray-startup-bare-'));
  try {
    cpSync(copy, bare, { recursive: true, verbatimSymlinks: true });
    for (const file of ['llhttp_simd.wasm', 'llhttp.wasm']) rmSync(join(bare, 'dist', file));
    const help = await run(join(bare, 'bin/txray.cjs'), ['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: txray');
    const lookup = await run(join(copy, 'bin/txray.cjs'), [HASH, '-r', server.url]);
    expect(lookup.code).toBe(0);
    expect(lookup.stdout).toContain(`Transaction ${HASH}`);
  } finally {
    rmSync(bare, { recursive: true, force: true });
  }
});
