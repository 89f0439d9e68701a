import { colorNames, modifierNames } from 'chalk';
import { describe, expect, test } from 'vitest';
import { makeChalk, STYLE_NAMES } from '../../src/render/style.js';

describe('a run without colour', () => {
  test("knows every style chalk has, without loading chalk (the list is chalk's own)", () => {
    expect(STYLE_NAMES).toEqual([...modifierNames, ...colorNames]);
  });

  test('paints nothing, for any style or chain of styles, as chalk at level 0 does', async () => {
    const plain = await makeChalk(0);
    const { Chalk } = await import('chalk');
    const chalk0 = new Chalk({ level: 0 });
    for (const name of STYLE_NAMES) {
      const style = name as 'red';
      expect(plain[style]('x', 'y')).toBe(chalk0[style]('x', 'y'));
      expect(plain.bold[style].underline('a')).toBe(chalk0.bold[style].underline('a'));
    }
    expect(plain.rgb(1, 2, 3)('z')).toBe(chalk0.rgb(1, 2, 3)('z'));
    expect(plain.hex('#123456').bold('w')).toBe(chalk0.hex('#123456').bold('w'));
    expect(plain.level).toBe(0);
  });
});
