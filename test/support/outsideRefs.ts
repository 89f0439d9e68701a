/**
 * Finds references to files outside the repository in source text: a relative path in a string that
 * climbs out of the repository from the file it is written in (a folder beside the checkout), and an
 * absolute path into a place that belongs to this machine rather than to every machine (a home or work
 * folder, a mount). The repository must stand alone: a clone with nothing beside it passes its tests.
 */
import { dirname, isAbsolute, relative, resolve } from 'node:path';

export interface OutsideRef {
  readonly line: number;
  readonly text: string;
  readonly why: string;
}

// Quoted strings and template literals on one line (a template's `${…}` parts stay in the text, which
// does not matter for what is looked for).
const STRING = /'([^'\\\n]|\\.)*'|"([^"\\\n]|\\.)*"|`([^`\\]|\\.)*`/g;
// A line that is all comment (`//`, `/*`, ` * ` of a block): prose may name any path.
const COMMENT = /^\s*(\/\/|\/\*|\*)/;
const CLIMB = /(?:^|[^\w.])((?:\.\.\/)+[\w@.-]*)/g;
// Top-level folders whose contents differ from machine to machine. System places every machine has
// (/dev/null, /proc, /etc, /usr/bin/time, a made-up missing path) are not references to this one.
const MACHINE_ROOTS = /^(?:file:\/\/)?\/(home|root|work|Users|mnt|media|srv|opt|tmp|var)(\/|$)/;

/**
 * The outside references in `source`, the text of the file at `file` (absolute) inside the repository
 * whose root is `root` (absolute).
 */
export function outsideRefs(source: string, file: string, root: string): OutsideRef[] {
  const found: OutsideRef[] = [];
  const lines = source.split('\n');
  lines.forEach((line, i) => {
    if (COMMENT.test(line)) return;
    for (const m of line.matchAll(STRING)) {
      const body = m[0].slice(1, -1);
      if (MACHINE_ROOTS.test(body)) found.push({ line: i + 1, text: body, why: 'an absolute path on this machine' });
      for (const c of body.matchAll(CLIMB)) {
        const target = resolve(dirname(file), c[1]!);
        const rel = relative(root, target);
        if (rel.startsWith('..') || isAbsolute(rel)) found.push({ line: i + 1, text: c[1]!, why: 'a relative path that leaves the repository' });
      }
    }
  });
  return found;
}
