import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { FoundryEndpoints } from '../../src/cli/foundryEndpoints.js';
import { looksLikeAlias, parseEndpoint, parseHash, parseHeaders, parseMaxResponse, parseOptions, parseRpcUrl, parseTimeout } from '../../src/cli/parseOptions.js';
import { UsageError } from '../../src/errors.js';
import { redactUrl, scrub, secretsOf } from '../../src/rpc/redactUrl.js';
import { resolveColor } from '../../src/render/style.js';

const H = 'ab'.repeat(32);

describe('parseHash', () => {
  test.each([
    ['with 0x', `0x${H}`, `0x${H}`],
    ['without 0x', H, `0x${H}`],
    ['upper case', `0X${H.toUpperCase()}`, `0x${H}`],
    ['surrounding spaces', `  0x${H}\n`, `0x${H}`],
  ])('accepts %s', (_n, input, expected) => expect(parseHash(input)).toBe(expected));

  test.each([
    ['empty', '', /empty/],
    ['short', '0x123', /has 3 hex digits, a hash has 64/],
    ['an address', '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512', /that is an address \(40 hex digits\); to simulate a call to it: txray call 0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512 <signature>/],
    ['long', `0x${H}00`, /has 66 hex digits/],
    ['non-hex', `0x${'zz'.repeat(32)}`, /characters other than hex digits/],
    ['escape in input is shown escaped', '\u001b[2J', /\\x1b\[2J/],
  ])('rejects %s', (_n, input, message) => {
    expect(() => parseHash(input)).toThrow(UsageError);
    expect(() => parseHash(input)).toThrow(message);
  });

  test('property: any 32 bytes parse to the canonical form; anything else is a UsageError', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.boolean(), (bytes, prefix) => {
        const hex = Buffer.from(bytes).toString('hex');
        expect(parseHash(`${prefix ? '0x' : ''}${hex}`)).toBe(`0x${hex}`);
      }),
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        try {
          expect(parseHash(s)).toMatch(/^0x[0-9a-f]{64}$/);
        } catch (e) {
          expect(e).toBeInstanceOf(UsageError);
          expect((e as Error).message).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('parseRpcUrl', () => {
  test.each([
    ['no scheme', 'localhost:8545', /no scheme/],
    ['ws scheme', 'ws://node:8546', /uses ws:\/\/.*WebSocket/],
    ['ftp scheme', 'ftp://node', /http:\/\/ or https:\/\/ only/],
    ['unparsable', 'http://exa mple:99999/KEY', /cannot be parsed/],
    ['empty', '  ', /empty/],
  ])('rejects %s without repeating the URL', (_n, url, message) => {
    expect(() => parseRpcUrl(url, '--rpc-url')).toThrow(message);
    try {
      parseRpcUrl(url, '--rpc-url');
    } catch (e) {
      expect((e as Error).message).not.toContain('KEY');
    }
  });

  test('named nowhere: http://localhost:8545, as cast does, marked as the default', () => {
    for (const env of [{}, { ETH_RPC_URL: '' }, { ETH_RPC_URL: '   ' }]) {
      const e = parseEndpoint(undefined, env);
      expect(e.url.href).toBe('http://localhost:8545/');
      expect(e.isDefault).toBe(true);
    }
    expect(parseEndpoint(undefined, { ETH_RPC_URL: 'http://node:1' }).isDefault).toBe(false);
    expect(() => parseEndpoint('', {})).toThrow(/--rpc-url is empty/);
  });

  test('only scheme://host:port is shown', () => {
    const url = parseRpcUrl('https://user:pa55@eth.example.org:8443/v2/SECRETKEY?apikey=QQQ', '--rpc-url');
    expect(redactUrl(url)).toBe('https://eth.example.org:8443');
  });
});

describe('--rpc-url <alias>: foundry.toml [rpc_endpoints]', () => {
  const foundry = (endpoints: Record<string, unknown>): FoundryEndpoints => ({ file: '/p/foundry.toml', endpoints });
  const project = foundry({ local: 'http://127.0.0.1:8545', mainnet: '${MAINNET_RPC_URL}', alchemy: 'https://eth-mainnet.g.alchemy.com/v2/${ALCHEMY_KEY}', tabled: { url: 'https://t.example/${A}', retries: 3 }, broken: 42, hosty: 'https://${HOST}/v2/KEY' });

  test.each([
    ['local', {}, 'http://127.0.0.1:8545/'],
    ['mainnet', { MAINNET_RPC_URL: 'https://user:pw@mainnet.example/KEY' }, 'https://user:pw@mainnet.example/KEY'],
    ['alchemy', { ALCHEMY_KEY: 'SECRET123' }, 'https://eth-mainnet.g.alchemy.com/v2/SECRET123'],
    ['tabled', { A: 'x' }, 'https://t.example/x'],
  ])('%s → the URL, ${VAR}s from the environment', (alias, env, url) => {
    expect(parseEndpoint(alias, env, project).url.href).toBe(url);
    // ETH_RPC_URL may name one too.
    expect(parseEndpoint(undefined, { ...env, ETH_RPC_URL: alias }, project).url.href).toBe(url);
  });

  test.each([
    ['unknown', {}, "no endpoint 'unknown' in foundry.toml [rpc_endpoints] (/p/foundry.toml); it names local, mainnet, alchemy, tabled, broken, hosty."],
    ['mainnet', {}, 'MAINNET_RPC_URL is not set (used by rpc_endpoints.mainnet).'],
    ['mainnet', { MAINNET_RPC_URL: ' ' }, 'MAINNET_RPC_URL is empty (used by rpc_endpoints.mainnet).'],
    ['broken', {}, 'rpc_endpoints.broken in /p/foundry.toml is not a URL (a string, or a table with url).'],
    ['hosty', { HOST: 'exa mple' }, 'the RPC URL from rpc_endpoints.hosty cannot be parsed; check it (it is not shown, in case it holds a key).'],
  ])('%s with %j: a usage error that names it, never the URL', (alias, env, message) => {
    expect(() => parseEndpoint(alias, env, project)).toThrow(UsageError);
    expect(() => parseEndpoint(alias, env, project)).toThrow(message);
  });

  test('no foundry.toml, or one that is not TOML: said in one line', () => {
    expect(() => parseEndpoint('mainnet', {}, null)).toThrow("--rpc-url 'mainnet' is not a URL, and no foundry.toml here or above names it in [rpc_endpoints]; pass http://… or https://….");
    expect(() => parseEndpoint(undefined, { ETH_RPC_URL: 'mainnet' }, { file: '/p/foundry.toml', endpoints: {}, broken: 'is not valid TOML' })).toThrow("ETH_RPC_URL 'mainnet' is not a URL, and /p/foundry.toml is not valid TOML, so its [rpc_endpoints] cannot name it.");
  });

  test('a word long enough to be an API key is never repeated', () => {
    const key = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6';
    for (const f of [null, project]) {
      try {
        parseEndpoint(key, {}, f);
        throw new Error('no error');
      } catch (e) {
        expect((e as Error).message).toMatch(/its value \(not shown: it may be a key\)/);
        expect((e as Error).message).not.toContain(key);
      }
    }
  });

  test('a host without a scheme is not an alias: the old advice', () => {
    expect(looksLikeAlias('127.0.0.1:8545')).toBe(false);
    expect(looksLikeAlias('node.example')).toBe(false);
    expect(() => parseEndpoint('node.example/rpc', {}, null)).toThrow(/has no scheme/);
    // host:port is http://, as cast and curl take it.
    for (const [given, url] of [['127.0.0.1:8545', 'http://127.0.0.1:8545/'], ['localhost:8545', 'http://localhost:8545/'], ['node.example:8545/KEY', 'http://node.example:8545/KEY'], ['[::1]:8545', 'http://[::1]:8545/']]) {
      expect(parseEndpoint(given, {}, null).url.href).toBe(url);
    }
  });
});

describe('secrets', () => {
  test('scrub removes credentials, path keys, query values and header values', () => {
    const url = new URL('https://user:pa55word@eth.example.org/v2/SECRETKEY?apikey=QUERYKEY');
    const secrets = secretsOf(url, ['Bearer TOKEN123']);
    const text = 'failed https://user:pa55word@eth.example.org/v2/SECRETKEY?apikey=QUERYKEY with Bearer TOKEN123';
    const out = scrub(text, secrets);
    for (const s of ['pa55word', 'SECRETKEY', 'QUERYKEY', 'TOKEN123']) expect(out).not.toContain(s);
  });
});

describe('other options', () => {
  test.each(['0', '-1', 'abc', '', 'NaN', 'Infinity'])('--timeout %j is a usage error', (t) => {
    expect(() => parseTimeout(t)).toThrow(/--timeout takes a positive number of seconds/);
  });
  test('--timeout 1.5 is 1500 ms, default 30 s', () => {
    expect(parseTimeout('1.5')).toBe(1500);
    expect(parseTimeout(undefined)).toBe(30_000);
  });
  test('--max-response-mb', () => {
    expect(parseMaxResponse(undefined)).toBe(256 * 1024 * 1024);
    expect(() => parseMaxResponse('0')).toThrow(UsageError);
  });
  test('headers: "Name: value", values never echoed', () => {
    expect(parseHeaders(['Authorization: Bearer abc', 'X-Key:v'])).toEqual([
      ['Authorization', 'Bearer abc'],
      ['X-Key', 'v'],
    ]);
    expect(() => parseHeaders(['Bearer SECRET'])).toThrow(/-H header #1 has no colon/);
    try {
      parseHeaders(['Bearer SECRET']);
    } catch (e) {
      expect((e as Error).message).not.toContain('SECRET');
    }
    expect(() => parseHeaders([': value'])).toThrow(/no valid header name/);
  });
  test('--rpc-url wins over ETH_RPC_URL', () => {
    const o = parseOptions({ hashes: [H], options: { rpcUrl: 'http://a:1' }, env: { ETH_RPC_URL: 'http://b:2' } });
    expect(o.url.host).toBe('a:1');
    expect(parseOptions({ hashes: [H], options: {}, env: { ETH_RPC_URL: 'http://b:2' } }).url.host).toBe('b:2');
  });
});

describe('resolveColor', () => {
  test.each([
    [{ flag: undefined, env: {}, isTTY: false }, 0],
    [{ flag: undefined, env: {}, isTTY: true }, 1],
    [{ flag: undefined, env: { NO_COLOR: '1' }, isTTY: true }, 0],
    [{ flag: undefined, env: { NO_COLOR: '' }, isTTY: true }, 1],
    [{ flag: undefined, env: { FORCE_COLOR: '1' }, isTTY: false }, 1],
    [{ flag: undefined, env: { FORCE_COLOR: '0' }, isTTY: true }, 0],
    [{ flag: undefined, env: { FORCE_COLOR: '3', NO_COLOR: '1' }, isTTY: false }, 3],
    [{ flag: false, env: { FORCE_COLOR: '3' }, isTTY: true }, 0],
    [{ flag: true, env: { NO_COLOR: '1' }, isTTY: false }, 1],
    [{ flag: undefined, env: { TERM: 'dumb' }, isTTY: true }, 0],
    [{ flag: undefined, env: { COLORTERM: 'truecolor' }, isTTY: true }, 3],
  ])('%j → level %i', (inputs, level) => expect(resolveColor(inputs)).toBe(level));
});

describe('--online', () => {
  const o = (raw: Record<string, unknown>, env: Record<string, string> = {}) => parseOptions({ hashes: [H], options: { rpcUrl: 'http://a:1', ...raw }, env: { HOME: 'home-u', ...env } }).online;
  test('off unless asked (--online or TXRAY_ONLINE=1); --no-online wins over the variable', () => {
    expect(o({})).toBeNull();
    expect(o({ online: true })).not.toBeNull();
    expect(o({}, { TXRAY_ONLINE: '1' })).not.toBeNull();
    expect(o({ online: false }, { TXRAY_ONLINE: '1' })).toBeNull();
    expect(o({}, { TXRAY_ONLINE: 'yes' })).toBeNull();
  });

  test('its defaults, the key from ETHERSCAN_API_KEY, and the cache folder as the issue sets it', () => {
    expect(o({ online: true })).toMatchObject({ etherscanKey: null, cacheDir: 'home-u/.cache/txray' });
    const s = o({ online: true }, { ETHERSCAN_API_KEY: ' K ', XDG_CACHE_HOME: '/x' })!;
    expect([s.sourcifyUrl.href, s.signaturesUrl.href, s.etherscanUrl.href]).toEqual(['https://sourcify.dev/server', 'https://api.4byte.sourcify.dev/', 'https://api.etherscan.io/v2/api']);
    expect(s.etherscanKey).toBe('K');
    expect(s.cacheDir).toBe('/x/txray');
    expect(o({ online: true }, { TXRAY_CACHE_DIR: '/c', XDG_CACHE_HOME: '/x' })!.cacheDir).toBe('/c');
  });

  test.each([
    ['sourcifyUrl', 'ftp://host', /--sourcify-url must be an http/],
    ['signaturesUrl', 'nope', /--signatures-url is not a URL/],
    ['etherscanUrl', 'https://u:p@host/api', /--etherscan-url must not carry credentials/],
  ])('a bad %s is a usage error even without --online (it is checked before any request)', (key, value, message) => {
    expect(() => o({ [key]: value })).toThrow(UsageError);
    expect(() => o({ [key]: value })).toThrow(message);
  });
});

describe('the command and the view, each chosen once', () => {
  const url = { rpcUrl: 'http://a:1' };
  test('a lookup, a call and a block each carry only what they take', () => {
    expect(parseOptions({ hashes: [H], options: url, env: {} }).command).toEqual({ kind: 'lookup', inputs: [{ kind: 'hash', text: H, hash: `0x${H}` }] });
    const call = parseOptions({ options: url, env: {}, call: { words: [`0x${'12'.repeat(20)}`, '0x12345678'], options: {} } }).command;
    expect(call.kind).toBe('call');
    expect(parseOptions({ options: url, env: {}, block: '100' }).command).toEqual({ kind: 'block', block: { kind: 'number', number: 100n } });
  });

  test('text, --json, or the page on stdout with --html -', () => {
    expect(parseOptions({ hashes: [H], options: url, env: {} }).view).toBe('text');
    expect(parseOptions({ hashes: [H], options: { ...url, json: true }, env: {} }).view).toBe('json');
    expect(parseOptions({ hashes: [H], options: { ...url, html: '-' }, env: {} }).view).toBe('html');
    expect(parseOptions({ hashes: [H], options: { ...url, json: true, quiet: true }, env: {} })).toMatchObject({ view: 'json', quiet: true });
  });
});

describe('--internal', () => {
  test('off unless given; on for a lookup', () => {
    expect(parseOptions({ hashes: [H], options: { rpcUrl: 'http://a:1' }, env: {} }).internal).toBe(false);
    expect(parseOptions({ hashes: [H], options: { rpcUrl: 'http://a:1', internal: true }, env: {} }).internal).toBe(true);
  });

  test('txray block does not take it: a usage error that says where it belongs', () => {
    expect(() => parseOptions({ options: { rpcUrl: 'http://a:1', internal: true }, env: {}, block: 'latest' })).toThrow(/txray block does not take --internal; look a transaction up \(txray <hash> --internal\)/);
  });
});
