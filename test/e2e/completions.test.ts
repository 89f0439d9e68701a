/**
 * `txray completions bash|zsh|fish`: each script is accepted by its shell and offers, on Tab, what the
 * options' own definitions say: `txray --tr<Tab>` gives --tracer, --tracer's modes, files for a <file>,
 * the foundry.toml endpoints for --rpc-url, `txray call`'s options after `call`. bash is driven through
 * its completion variables, zsh through a pseudo-terminal (zpty), fish through `complete -C`.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { runTxray } from '../support/runTxray.js';
import { ensureShell } from '../support/shells.js';

const project = mkdtempSync(join(tmpdir(), 'txray-completions-'));
const inside = join(project, 'script', 'deep');
const scripts: Record<string, string> = {};

beforeAll(async () => {
  mkdirSync(inside, { recursive: true });
  writeFileSync(join(project, 'foundry.toml'), ['[profile.default]', 'src = "src"', '', '[rpc_endpoints]', 'mainnet = "${MAINNET_RPC_URL}"', 'local = "http://127.0.0.1:8545"', '', '[profile.ci.rpc_endpoints]', 'ci_node = "http://ci:8545"', ''].join('\n'));
  writeFileSync(join(inside, 'Token.abi.json'), '[]');
  writeFileSync(join(inside, 'my file.json'), '[]');
  for (const shell of ['bash', 'zsh', 'fish']) {
    const r = await runTxray(['completions', shell]);
    expect(r.code).toBe(0);
    scripts[shell] = join(project, `completions.${shell}`);
    writeFileSync(scripts[shell]!, r.stdout);
  }
}, 180_000);

const run = (cmd: string, args: string[]): string => {
  const r = spawnSync(cmd, args, { cwd: inside, encoding: 'utf8', timeout: 20_000 });
  if (r.status !== 0) throw new Error(`${cmd} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
};

/** What each shell offers for a command line that ends where Tab is pressed. */
const offers: Record<string, (line: string) => string[]> = {
  bash: (line) => {
    const words = line.split(' ');
    const script = `source ${scripts.bash}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _txray; printf '%s\\n' "\${COMPREPLY[@]}"`;
    return run('bash', ['-c', script]).split('\n').filter(Boolean);
  },
  zsh: (line) => {
    const out = join(project, `zsh-${Math.random().toString(36).slice(2)}.txt`);
    const driver = [
      'zmodload zsh/zpty',
      'zpty z zsh -f -i',
      `zpty -w z "PROMPT=''; autoload -U compinit; compinit -u -D"`,
      `zpty -w z "source ${scripts.zsh}"`,
      `zpty -w z 'compadd () { builtin compadd -O __hits "$@"; print -rl -- $__hits >> ${out}; builtin compadd "$@" }'`,
      `zpty -w z "cd ${inside}"`,
      `zpty -w -n z "${line}"$'\\t'`,
      // Until the completion has offered something (or 10 s), then a moment for the rest of its offers.
      `for i in {1..100}; do [[ -s ${out} ]] && break; sleep 0.1; done`,
      'sleep 0.3',
      'zpty -d z',
    ].join('\n');
    run('zsh', ['-f', '-c', driver]);
    try {
      // zsh's file completion offers a name both as typed and quoted for the line (my\ file.json).
      return [...new Set(run('cat', [out]).split('\n').filter(Boolean).map((l) => l.replace(/\\ /g, ' ')))];
    } catch {
      return [];
    }
  },
  // fish escapes a space in what it offers (my\ file.json).
  fish: (line) => run('fish', ['-c', `source ${scripts.fish}; complete -C '${line}'`]).split('\n').filter(Boolean).map((l) => l.split('\t')[0]!.replace(/\\ /g, ' ')),
};

describe.each(['bash', 'zsh', 'fish'] as const)('txray completions %s', (shell) => {
  test('accepted by the shell, and registered for txray', () => {
    expect(ensureShell(shell), `${shell} could not be installed here`).toBe(true);
    const check = { bash: `source ${scripts.bash}; complete -p txray`, zsh: `autoload -U compinit; compinit -u -D; source ${scripts.zsh}; print -r -- \${_comps[txray]}`, fish: `source ${scripts.fish}; complete -c txray | head -1` }[shell];
    const out = run(shell, shell === 'zsh' ? ['-f', '-c', check] : ['-c', check]);
    expect(out.trim()).toMatch({ bash: /^complete -F _txray txray$/, zsh: /^_txray$/, fish: /^complete .*txray/ }[shell]);
  });

  test.each([
    ['txray --tr', ['--tracer']],
    ['txray --tracer ', ['auto', 'geth', 'local', 'none', 'parity']],
    ['txray -r ', ['ci_node', 'local', 'mainnet']],
    ['txray call --over', ['--override-balance', '--override-code', '--override-nonce', '--override-state-diff']],
    ['txray completions ', ['bash', 'fish', 'zsh']],
    ['txray debug --a', ['--abi', '--at']],
    ['txray repl', ['replay']],
    // Its view options only: not --sourcify-url nor --signatures-url, which a lookup offers here.
    ['txray replay --s', ['--state']],
  ])('%s<Tab> offers %j', (line, want) => {
    expect(ensureShell(shell)).toBe(true);
    expect([...offers[shell]!(line)].sort()).toEqual(want);
  });

  test('a <file> option offers files, a name with a space whole', () => {
    expect(ensureShell(shell)).toBe(true);
    expect(offers[shell]!('txray --abi Tok')).toContain('Token.abi.json');
    expect(offers[shell]!('txray --abi my')).toEqual(['my file.json']);
    expect(offers[shell]!('txray replay Tok')).toContain('Token.abi.json');
  });

  test('every option --help shows, of txray and of txray call, is in the script (it is made from the same definitions)', async () => {
    // Less what the examples run in $(…): other tools' options (cast send --async).
    const text = ((await runTxray(['--help'])).stdout + (await runTxray(['call', '--help'])).stdout).replace(/\$\([^)]*\)/g, '');
    const options = new Set(text.match(/(?<=^|\s|,)--?[a-zA-Z][a-z-]*(?=[\s,=<[]|$)/gm) ?? []);
    expect(options.size).toBeGreaterThan(40);
    for (const o of options) expect(scripts[shell] && run('cat', [scripts[shell]!])).toContain(shell === 'fish' ? (o.startsWith('--') ? `-l ${o.slice(2)}` : `-s ${o.slice(1)}`) : o);
  });
});

test('zsh: a value name with a colon (<addr:hex>) is not cut into a command', () => {
  const text = spawnSync('cat', [scripts.zsh!], { encoding: 'utf8' }).stdout;
  expect(text).toContain("--override-code'[simulate with this runtime code]:addr/code: '");
  expect(text).not.toMatch(/\]:addr:hex:/);
});

describe('txray completions: usage', () => {
  test.each([[[]], [['tcsh']], [['bash', 'zsh']]])('%j: exit 2, one line', async (words) => {
    const r = await runTxray(['completions', ...words]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^txray: txray completions takes (bash, zsh or fish|one shell: bash, zsh or fish)/);
  });

  test('--help says how to install each', async () => {
    const r = await runTxray(['completions', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('source <(txray completions bash)');
    expect(r.stdout).toContain('~/.config/fish/completions/txray.fish');
  });
});
