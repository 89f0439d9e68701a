/**
 * Colour is decided once, here, from the flag, the environment and whether stdout is a terminal;
 * the renderers get a Chalk instance and never look at process state. (chalk 5 alone ignores NO_COLOR.)
 */
import type { ChalkInstance } from 'chalk';

export type ColorLevel = 0 | 1 | 2 | 3;

export interface ColorInputs {
  /** --color (true) / --no-color (false); undefined when neither was given. */
  readonly flag: boolean | undefined;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly isTTY: boolean;
}

function forcedLevel(value: string): ColorLevel {
  if (value === 'false' || value === '0') return 0;
  if (value === '2') return 2;
  if (value === '3') return 3;
  return 1; // '', '1', 'true', anything else
}

function terminalLevel(env: ColorInputs['env']): ColorLevel {
  if (env.COLORTERM === 'truecolor' || env.COLORTERM === '24bit') return 3;
  if (env.TERM?.includes('256')) return 2;
  return 1;
}

/**
 * Precedence: --color/--no-color, then FORCE_COLOR (as Node itself treats it when both are set),
 * then NO_COLOR (any non-empty value), then: colour only on a terminal that is not "dumb".
 */
export function resolveColor({ flag, env, isTTY }: ColorInputs): ColorLevel {
  if (flag === false) return 0;
  if (flag === true) {
    const forced = env.FORCE_COLOR !== undefined ? forcedLevel(env.FORCE_COLOR) : 0;
    return forced > 0 ? forced : isTTY ? terminalLevel(env) : 1;
  }
  if (env.FORCE_COLOR !== undefined) return forcedLevel(env.FORCE_COLOR);
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return 0;
  if (!isTTY || env.TERM === 'dumb') return 0;
  return terminalLevel(env);
}

/**
 * chalk is loaded on first use, and only for colour: when it loads it detects colour support itself
 * (unused here), which loads node:tty and node:os, time that a lookup would otherwise spend before its
 * requests go out.
 */
export async function makeChalk(level: ColorLevel): Promise<ChalkInstance> {
  if (level === 0) return plainChalk(STYLE_NAMES);
  const { Chalk } = await import('chalk');
  return new Chalk({ level });
}

/**
 * chalk's style names (its modifierNames, then its colorNames), so that a run without colour never
 * loads chalk at all; test/unit/style.test.ts checks the list against the installed chalk's.
 */
export const STYLE_NAMES: readonly string[] = [
  'reset', 'bold', 'dim', 'italic', 'underline', 'overline', 'inverse', 'hidden', 'strikethrough',
  'black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white', 'blackBright', 'gray', 'grey',
  'redBright', 'greenBright', 'yellowBright', 'blueBright', 'magentaBright', 'cyanBright', 'whiteBright',
  'bgBlack', 'bgRed', 'bgGreen', 'bgYellow', 'bgBlue', 'bgMagenta', 'bgCyan', 'bgWhite', 'bgBlackBright',
  'bgGray', 'bgGrey', 'bgRedBright', 'bgGreenBright', 'bgYellowBright', 'bgBlueBright', 'bgMagentaBright',
  'bgCyanBright', 'bgWhiteBright',
];

/**
 * Without colour, what chalk's level 0 does (text as given, several joined by a space; `visible` drops
 * it), without its builder per style, which a big transaction's many painted pieces would each pay for.
 * Every style and every chain of styles is the same function.
 */
function plainChalk(styles: readonly string[]): ChalkInstance {
  const plain = ((...text: unknown[]): string => (text.length === 1 ? String(text[0]) : text.join(' '))) as ChalkInstance;
  for (const name of styles) Reflect.set(plain, name, plain);
  for (const name of ['rgb', 'hex', 'ansi256', 'bgRgb', 'bgHex', 'bgAnsi256']) Reflect.set(plain, name, () => plain);
  Reflect.set(plain, 'visible', () => '');
  plain.level = 0;
  return plain;
}
