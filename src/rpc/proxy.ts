/**
 * Proxies from the environment, as curl, cast and undici's EnvHttpProxyAgent read them: `http_proxy` /
 * `HTTP_PROXY` for http: URLs, `https_proxy` / `HTTPS_PROXY` for https: ones (else the http: proxy), the
 * lower-case spelling first; `no_proxy` / `NO_PROXY` a list of hosts (with an optional :port; a leading
 * `.` or `*.` for a domain and its subdomains; `*` for every host) that go direct. The settings are read
 * once, here, and handed to the dispatcher whole, so that what --debug says is what it does.
 */
import { UsageError } from '../errors.js';

export interface ProxySettings {
  readonly http: string | null;
  readonly https: string | null;
  readonly noProxy: string;
}

export const NO_PROXY_SETTINGS: ProxySettings = { http: null, https: null, noProxy: '' };

const DEFAULT_PORTS: Readonly<Record<string, number>> = { 'http:': 80, 'https:': 443 };

/** The proxy variables, checked: a proxy that is not an http(s) URL is a usage error (a typo would otherwise send nothing anywhere). */
export function proxySettingsOf(env: Readonly<Record<string, string | undefined>>): ProxySettings {
  const pick = (lower: string, upper: string): string | null => {
    const v = (env[lower] ?? env[upper])?.trim();
    if (v === undefined || v === '') return null;
    // A proxy without a scheme (proxy.corp:3128) is http://, as curl takes it.
    const written = /^[a-z][a-z0-9+.-]*:\/\//i.test(v) ? v : `http://${v}`;
    let url: URL;
    try {
      url = new URL(written);
    } catch {
      throw new UsageError(`${env[lower] !== undefined ? lower : upper} is not a URL; expected http://host:port.`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`${env[lower] !== undefined ? lower : upper} must be an http:// or https:// URL.`);
    return written;
  };
  const http = pick('http_proxy', 'HTTP_PROXY');
  return { http, https: pick('https_proxy', 'HTTPS_PROXY') ?? http, noProxy: env.no_proxy ?? env.NO_PROXY ?? '' };
}

/** The proxy a request to `url` goes through, or null for a direct connection. */
export function proxyFor(url: URL, s: ProxySettings): URL | null {
  const proxy = url.protocol === 'https:' ? s.https : s.http;
  if (proxy === null) return null;
  // The host with an IPv6 literal's brackets kept, the port made explicit.
  const host = url.host.replace(/:\d*$/, '').toLowerCase();
  const port = Number.parseInt(url.port, 10) || DEFAULT_PORTS[url.protocol] || 0;
  // undici's rules to the letter (EnvHttpProxyAgent): `*` alone, untrimmed, means every host; an entry's
  // port 0 (or none) any port.
  const entries = s.noProxy.split(/[,\s]/).filter((e) => e !== '');
  if (entries.length > 0 && s.noProxy === '*') return null;
  for (const entry of entries) {
    const m = /^(.+):(\d+)$/.exec(entry);
    const name = (m?.[1] ?? entry).replace(/^\*?\./, '').toLowerCase();
    const entryPort = m?.[2] === undefined ? 0 : Number.parseInt(m[2], 10);
    if (entryPort !== 0 && entryPort !== port) continue;
    if (host === name || host.endsWith(`.${name}`)) return null;
  }
  return new URL(proxy);
}

/** A proxy as --debug shows it: host and port, never its credentials or path. */
export const shownProxy = (proxy: URL): string => `${proxy.protocol}//${proxy.host}`;
