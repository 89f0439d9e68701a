import { describe, expect, test } from 'vitest';
import { UsageError } from '../../src/errors.js';
import { proxyFor, proxySettingsOf, shownProxy } from '../../src/rpc/proxy.js';

const P = 'http://proxy.corp:3128';

describe('proxyFor: the rules curl, cast and undici share', () => {
  test.each([
    // [url, env, expected proxy or null]
    ['http://node.example:8545', { HTTP_PROXY: P }, P],
    ['http://node.example:8545', { http_proxy: P, HTTP_PROXY: 'http://other:1' }, P],
    ['https://node.example', { HTTP_PROXY: P }, P],
    ['https://node.example', { HTTPS_PROXY: 'http://secure:8080', HTTP_PROXY: P }, 'http://secure:8080'],
    ['http://node.example', { HTTPS_PROXY: P }, null],
    ['http://node.example', {}, null],
    ['http://node.example', { HTTP_PROXY: P, NO_PROXY: 'node.example' }, null],
    ['http://rpc.node.example', { HTTP_PROXY: P, NO_PROXY: '.node.example' }, null],
    ['http://rpc.node.example', { HTTP_PROXY: P, NO_PROXY: '*.node.example' }, null],
    ['http://rpc.node.example', { HTTP_PROXY: P, NO_PROXY: 'node.example' }, null],
    ['http://othernode.example', { HTTP_PROXY: P, NO_PROXY: 'node.example' }, P],
    ['http://node.example:8545', { HTTP_PROXY: P, NO_PROXY: 'node.example:8545' }, null],
    ['http://node.example:8546', { HTTP_PROXY: P, NO_PROXY: 'node.example:8545' }, P],
    ['http://node.example', { HTTP_PROXY: P, NO_PROXY: 'node.example:80' }, null],
    ['http://NODE.example', { HTTP_PROXY: P, no_proxy: 'a.example,node.example b.example' }, null],
    ['http://[::1]:8545', { HTTP_PROXY: P, NO_PROXY: '[::1]' }, null],
    ['http://node.example', { HTTP_PROXY: P, NO_PROXY: '*' }, null],
    ['http://node.example', { HTTP_PROXY: P, NO_PROXY: '' }, P],
  ] as const)('%s with %j → %s', (url, env, expected) => {
    const found = proxyFor(new URL(url), proxySettingsOf(env));
    expect(found === null ? null : found.href.replace(/\/$/, '')).toBe(expected);
  });

  test('a proxy is shown by scheme, host and port only', () => {
    expect(shownProxy(new URL('http://user:secret@proxy.corp:3128/some/path?key=1'))).toBe('http://proxy.corp:3128');
  });

  test('a proxy without a scheme is http://, as curl takes it', () => {
    expect(proxyFor(new URL('http://node.example'), proxySettingsOf({ HTTP_PROXY: 'proxy.corp:3128' }))?.href).toBe('http://proxy.corp:3128/');
    expect(proxyFor(new URL('https://node.example'), proxySettingsOf({ https_proxy: '127.0.0.1:3128' }))?.href).toBe('http://127.0.0.1:3128/');
  });

  test('NO_PROXY as undici reads it: a padded * is not every host; port 0 is any port', () => {
    expect(proxyFor(new URL('http://node.example'), proxySettingsOf({ HTTP_PROXY: P, NO_PROXY: ' *' }))).not.toBeNull();
    expect(proxyFor(new URL('http://node.example:8545'), proxySettingsOf({ HTTP_PROXY: P, NO_PROXY: 'node.example:0' }))).toBeNull();
  });

  test.each([['HTTP_PROXY', 'http://[bad'], ['https_proxy', 'socks5://127.0.0.1:1080']])('%s=%s is a usage error naming the variable', (name, value) => {
    expect(() => proxySettingsOf({ [name]: value })).toThrow(UsageError);
    expect(() => proxySettingsOf({ [name]: value })).toThrow(new RegExp(`^${name} `));
  });
});
