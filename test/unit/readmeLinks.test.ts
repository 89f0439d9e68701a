/**
 * The README and the reference pages under docs/: every relative link leads to a file that exists, and
 * a link with a #anchor into a markdown file to a heading of that file (by GitHub's slug). The README
 * stays short, its quick start before the packaging details, and its example blocks are the ones
 * scripts/readme-examples.mjs knows how to write.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const README = join(ROOT, 'README.md');
const DOCS = join(ROOT, 'docs');
const PAGES = [README, ...readdirSync(DOCS).filter((f) => f.endsWith('.md')).sort().map((f) => join(DOCS, f))];
const read = (file: string): string => readFileSync(file, 'utf8');

/** The text outside fenced code blocks (``` or ~~~), line for line, so what a code block holds is no link or heading. */
function prose(text: string): string {
  let fence: string | null = null;
  return text
    .split('\n')
    .map((line) => {
      const opens = /^\s*(`{3,}|~{3,})/.exec(line);
      if (fence === null && opens !== null) {
        fence = opens[1]!;
        return '';
      }
      if (fence !== null) {
        if (line.trim().startsWith(fence)) fence = null;
        return '';
      }
      return line;
    })
    .join('\n');
}

/** GitHub's anchor for a heading: lower case, punctuation other than `-` dropped, each space a `-`. */
function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every heading's anchor in a markdown text, with GitHub's -1, -2 … for repeats. */
function anchorsIn(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of prose(text).split('\n')) {
    const m = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (m === null) continue;
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

interface Link {
  readonly from: string;
  readonly line: number;
  readonly target: string;
}

/** Every relative link and image of a page: `](path)` or `](path#anchor)`, not http(s), mailto or any other scheme. */
function linksOf(file: string): Link[] {
  const links: Link[] = [];
  prose(read(file))
    .split('\n')
    .forEach((text, i) => {
      // Inline code is no link, but a link's text may be inline code: drop the code, keep the brackets.
      const line = text.replace(/`[^`]*`/g, 'code');
      for (const m of line.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
        const target = m[1]!;
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
        links.push({ from: relative(ROOT, file), line: i + 1, target });
      }
    });
  return links;
}

describe('GitHub heading slugs', () => {
  test.each([
    ['State changes (`--state`)', 'state-changes---state'],
    ['Decoding: calls, events and errors by name', 'decoding-calls-events-and-errors-by-name'],
    ['L2 chains: OP Stack and Arbitrum', 'l2-chains-op-stack-and-arbitrum'],
    ['The gas profile (`--gas`, `--gas-out`)', 'the-gas-profile---gas---gas-out'],
    ["HTTP through Node's own client", 'http-through-nodes-own-client'],
    ['Which tracer, on which node', 'which-tracer-on-which-node'],
    ['JSON output (schema version 1)', 'json-output-schema-version-1'],
    ['a [link](x.md) in it', 'a-link-in-it'],
  ])('%s → %s', (heading, expected) => {
    expect(slug(heading)).toBe(expected);
  });

  test('a repeated heading gets -1, as on GitHub; a line in a code block is no heading', () => {
    expect([...anchorsIn('# a\n```sh\n# a comment\n```\n## A\n### a')]).toEqual(['a', 'a-1', 'a-2']);
    expect([...anchorsIn('# Top\n~~~\n## inside\n~~~\n## After it')]).toEqual(['top', 'after-it']);
  });
});

describe('links in README.md and docs/*.md', () => {
  const links = PAGES.flatMap(linksOf);

  test('the scan finds the README\'s links to docs/ and the pages\' links back', () => {
    expect(links.filter((l) => l.from === 'README.md' && l.target.startsWith('docs/')).length).toBeGreaterThanOrEqual(10);
    expect(links.some((l) => l.from.startsWith('docs') && l.target.startsWith('../README.md'))).toBe(true);
  });

  test('every relative link leads to a file that exists', () => {
    const missing = links.filter((l) => {
      const path = l.target.split('#')[0]!;
      return path !== '' && !existsSync(resolve(dirname(join(ROOT, l.from)), decodeURIComponent(path)));
    });
    expect(missing.map((l) => `${l.from}:${l.line}: ${l.target}`)).toEqual([]);
  });

  test('every #anchor into a markdown file names one of its headings', () => {
    const broken = links.filter((l) => {
      const hash = l.target.indexOf('#');
      if (hash < 0) return false;
      const path = l.target.slice(0, hash);
      const file = path === '' ? join(ROOT, l.from) : resolve(dirname(join(ROOT, l.from)), decodeURIComponent(path));
      if (!file.endsWith('.md') || !existsSync(file)) return false;
      return !anchorsIn(read(file)).has(decodeURIComponent(l.target.slice(hash + 1)));
    });
    expect(broken.map((l) => `${l.from}:${l.line}: ${l.target}`)).toEqual([]);
  });

  test('the README links every page under docs/', () => {
    const linked = new Set(links.filter((l) => l.from === 'README.md').map((l) => l.target.split('#')[0]));
    const pages = readdirSync(DOCS).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
    expect(pages.filter((p) => !linked.has(p))).toEqual([]);
  });
});

describe('README.md', () => {
  const text = read(README);

  test('is at most 350 lines', () => {
    expect(text.trimEnd().split('\n').length).toBeLessThanOrEqual(350);
  });

  /** A `## ` section of a markdown text, from its heading to the next one of its level. */
  const sectionOf = (md: string, heading: string): string => {
    const at = md.indexOf(`\n${heading}\n`);
    expect(at, heading).toBeGreaterThan(0);
    const level = /^#+ /.exec(heading)![0];
    const next = md.indexOf(`\n${level}`, at + 1);
    return md.slice(at, next < 0 ? undefined : next);
  };

  test('keeps reference in docs/: the Speed section is the main ratios only, and reading the call tree is in docs/nodes.md', () => {
    expect(sectionOf(text, '## Speed').trim().split('\n').length).toBeLessThanOrEqual(16);
    expect(text).not.toContain('### Reading the call tree');
    expect(read(join(DOCS, 'nodes.md'))).toContain('\n## Reading the call tree\n');
  });

  test('the speed figures say whose machine they are from, that loopback is behind cast there, and each is one of docs/speed.md\'s last run', () => {
    const speed = sectionOf(text, '## Speed');
    expect(speed).toContain("another machine's, not yours");
    const machine = /2-core [A-Za-z ]+ host/.exec(speed)?.[0];
    expect(machine, 'the README names the machine of its figures').toBeDefined();
    expect(speed).toContain('behind `cast` on every loopback row');
    const doc = read(join(DOCS, 'speed.md'));
    const heading = /^## The last run\b.*$/m.exec(doc)?.[0];
    expect(heading, 'docs/speed.md has a last run').toBeDefined();
    const lastRun = sectionOf(doc, heading!);
    expect(lastRun).toContain(machine!);
    expect(lastRun).toContain('behind `cast` on every loopback row');
    const figures = speed.match(/\d+(\.\d+)?×/g) ?? [];
    expect(figures.length).toBeGreaterThan(8);
    for (const f of figures) expect(lastRun, `${f} is not in docs/speed.md's last run`).toContain(f);
  });

  test('shows the quick start\'s two commands before the Install section\'s packaging text', () => {
    const install = text.indexOf('\n## Install\n');
    expect(install).toBeGreaterThan(0);
    const next = text.indexOf('\n## ', install + 1);
    const section = text.slice(install, next < 0 ? undefined : next);
    const packaging = /self-contained|tarball|npm pack/.exec(section);
    expect(packaging, 'the Install section says what the package is').not.toBeNull();
    const packagingAt = install + packaging!.index;
    const demo = text.search(/^npm ci && npm run demo\b/m);
    const test_ = text.search(/^npm test\b/m);
    expect(demo).toBeGreaterThan(0);
    expect(test_).toBeGreaterThan(0);
    expect(demo).toBeLessThan(packagingAt);
    expect(test_).toBeLessThan(packagingAt);
  });
});

describe('example blocks', () => {
  const script = read(join(ROOT, 'scripts', 'readme-examples.mjs'));

  test.each(PAGES.map((p) => [relative(ROOT, p), p]))('%s: each marker holds one fenced block that npm run readme writes', (_name, file) => {
    const text = read(file);
    const opens = [...text.matchAll(/^<!-- example: ([\w-]+) -->$/gm)];
    const closes = [...text.matchAll(/^<!-- \/example -->$/gm)];
    expect(closes.length).toBe(opens.length);
    for (const m of opens) {
      const name = m[1]!;
      const rest = text.slice(m.index + m[0].length);
      expect(rest, `${name}: a fenced block, then the closing marker`).toMatch(/^\n```[a-z]*\n[\s\S]*?\n```\n<!-- \/example -->/);
      expect(script.includes(`${name}: (`) || script.includes(`'${name}': (`), `${name} is recorded in scripts/readme-examples.mjs`).toBe(true);
    }
  });
});
