/**
 * What may be shown of an endpoint: scheme, host and port. Hosted endpoints carry API keys in the
 * path (/v2/KEY), the query (?apikey=) or the userinfo; none of it is ever printed.
 */
export function redactUrl(url: URL): string {
  return `${url.protocol}//${url.host}`;
}

/**
 * The secret parts of an endpoint and of the -H header values, for scrubbing any text that might
 * have picked them up from a library's message (a belt to redactUrl's braces).
 */
export function secretsOf(url: URL, headerValues: readonly string[]): string[] {
  const secrets = new Set<string>();
  const add = (s: string): void => {
    if (s.length >= 3) {
      secrets.add(s);
      try {
        const decoded = decodeURIComponent(s);
        if (decoded.length >= 3) secrets.add(decoded);
      } catch {
        /* not percent-encoded */
      }
    }
  };
  add(url.username);
  add(url.password);
  if (url.pathname !== '/') add(url.pathname);
  // Path segments only when they look like keys (a digit, or long): "/v2/abc123…" but not "/rpc" or "/mainnet",
  // which would otherwise blank ordinary words out of messages.
  for (const part of url.pathname.split('/')) if (part.length >= 6 && (/\d/.test(part) || part.length >= 20)) add(part);
  add(url.search.replace(/^\?/, ''));
  for (const [, value] of url.searchParams) add(value);
  for (const value of headerValues) add(value.trim());
  // Longest first, so a path is replaced before a segment of it.
  return [...secrets].sort((a, b) => b.length - a.length);
}

export function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join('***');
  return out;
}
