/**
 * `txray completions <bash|zsh|fish>`: a completion script made from the commander definitions of
 * `txray`, `txray call`, `txray block` (createProgram.ts), `txray debug` (createDebugProgram.ts) and `txray replay` (the lookup's view options), so it never drifts from --help: every option, the choices
 * an option declares (--tracer), file names where the option's argument is a <file> or <path>, and for
 * --rpc-url the aliases of the nearest foundry.toml's [rpc_endpoints] (read by awk where the shell asks:
 * no node starts on Tab).
 */
import type { Command, Option } from 'commander';
import { UsageError } from '../errors.js';
import { createDebugProgram } from './createDebugProgram.js';
import { createBlockProgram, createCallProgram, createProgram } from './createProgram.js';
import { REPLAY_OPTIONS } from '../record/replayOptions.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
/** `txray block`'s words besides a number or a hash. */
const BLOCK_TAGS = ['latest', 'pending', 'safe', 'finalized', 'earliest'];
export type Shell = (typeof SHELLS)[number];

/** What a shell needs of one option. */
interface Spec {
  readonly long: string | undefined;
  readonly short: string | undefined;
  readonly description: string;
  /** It takes a value (required or optional). */
  readonly takesValue: boolean;
  /** The value may be left out (`--wait [seconds]`). */
  readonly optionalValue: boolean;
  readonly valueName: string;
  readonly kind: 'file' | 'endpoint' | 'choices' | 'value' | 'flag';
  readonly choices: readonly string[];
}

function specOf(o: Option): Spec {
  const takesValue = o.required || o.optional;
  const valueName = /[<[]([^>\]]+)[>\]]/.exec(o.flags)?.[1] ?? 'value';
  const kind: Spec['kind'] = !takesValue
    ? 'flag'
    : o.argChoices !== undefined
      ? 'choices'
      : o.long === '--rpc-url'
        ? 'endpoint'
        : valueName === 'file' || valueName === 'path'
          ? 'file'
          : 'value';
  // The first clause of the help text, on one line: enough to tell options apart in zsh and fish.
  const description = (o.argChoices !== undefined ? `${valueName}: ${o.argChoices.join(', ')}` : (o.description.split(/[;:(]/)[0] ?? '')).replace(/\s+/g, ' ').trim();
  return { long: o.long, short: o.short, description, takesValue, optionalValue: o.optional, valueName, kind, choices: o.argChoices ?? [] };
}

function specsOf(cmd: Command): Spec[] {
  const specs = (cmd.options as readonly Option[]).map(specOf);
  // The help option commander adds itself is not among cmd.options: its help lists it with the visible ones.
  for (const o of cmd.createHelp().visibleOptions(cmd)) if (!specs.some((s) => s.long === o.long)) specs.push(specOf(o));
  return specs;
}

/** Every front door's options, from their own definitions; `txray replay`'s are the lookup's view options and --record. */
function programs(): { readonly lookup: Spec[]; readonly call: Spec[]; readonly block: Spec[]; readonly debug: Spec[]; readonly replay: Spec[] } {
  const quiet = { writeOut: () => undefined };
  const lookup = specsOf(createProgram(quiet, () => undefined));
  const replays = (name: string | undefined): boolean => name !== undefined && (REPLAY_OPTIONS.flags.has(name) || REPLAY_OPTIONS.valued.has(name) || name === REPLAY_OPTIONS.record);
  return {
    lookup,
    call: specsOf(createCallProgram(quiet, () => undefined)),
    block: specsOf(createBlockProgram(quiet, () => undefined)),
    debug: specsOf(createDebugProgram(quiet, () => undefined)),
    replay: lookup.filter((s) => replays(s.long)),
  };
}

const names = (specs: readonly Spec[]): string[] => specs.flatMap((s) => [s.long, s.short].filter((n): n is string => n !== undefined));

/** Finds the nearest foundry.toml upwards and prints its [rpc_endpoints] keys (top level and per profile). POSIX sh, for bash and zsh. */
const AWK_ALIASES = `awk '/^[[:space:]]*\\[/ { inside = ($0 ~ /^[[:space:]]*\\[(profile\\.[A-Za-z0-9_-]+\\.)?rpc_endpoints\\][[:space:]]*$/); next } inside && /^[[:space:]]*[A-Za-z0-9_-]+[[:space:]]*=/ { sub(/^[[:space:]]*/, ""); sub(/[[:space:]]*=.*$/, ""); if (!seen[$0]++) print }'`;
const SH_ALIASES = `_txray_rpc_aliases() {
  local dir="$PWD"
  while :; do
    if [ -f "$dir/foundry.toml" ]; then
      ${AWK_ALIASES} "$dir/foundry.toml" 2>/dev/null
      return 0
    fi
    [ "$dir" = / ] || [ -z "$dir" ] && return 0
    dir="\${dir%/*}"
    [ -z "$dir" ] && dir=/
  done
}`;

/** A word list for a shell's own quoting: every name here is [-A-Za-z0-9_] only. */
const words = (list: readonly string[]): string => list.join(' ');

function bash(p: ReturnType<typeof programs>): string {
  const valueCases = (specs: readonly Spec[]): string => {
    const byKind = (kind: Spec['kind']): string[] => names(specs.filter((s) => s.kind === kind));
    const lines: string[] = [];
    for (const s of specs.filter((x) => x.kind === 'choices')) lines.push(`      ${names([s]).join('|')}) COMPREPLY=($(compgen -W "${words(s.choices)}" -- "$cur")); return ;;`);
    // One name a line (a name may hold spaces), none globbed.
    if (byKind('file').length > 0) lines.push(`      ${byKind('file').join('|')}) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$cur"); return ;;`);
    if (byKind('endpoint').length > 0) lines.push(`      ${byKind('endpoint').join('|')}) COMPREPLY=($(compgen -W "$(_txray_rpc_aliases)" -- "$cur")); return ;;`);
    // A value nobody can guess (a number, an address): nothing offered.
    const free = names(specs.filter((s) => s.kind === 'value' && s.takesValue && !s.optionalValue));
    if (free.length > 0) lines.push(`      ${free.join('|')}) return ;;`);
    return lines.join('\n');
  };
  // A front door whose words after it are options only (their values completed as their kinds say).
  const optionsOnly = (name: string, specs: readonly Spec[]): string =>
    [`  ${name})`, '    case "$prev" in', valueCases(specs), '    esac', `    [[ "$cur" == -* ]] && COMPREPLY=($(compgen -W "${words(names(specs))}" -- "$cur"))`, '    return ;;'].join('\n');
  /** A subcommand's case: its options' values, its option names after a dash, else `otherwise` (an elif or else branch). */
  const subcommand = (name: string, specs: readonly Spec[], otherwise: string): string => `  ${name})
    case "$prev" in
${valueCases(specs)}
    esac
    if [[ "$cur" == -* ]]; then
      COMPREPLY=($(compgen -W "${words(names(specs))}" -- "$cur"))
    ${otherwise}
    fi
    return ;;`;
  return `# txray completions for bash: made by \`txray completions bash\` from txray's own option definitions.
# Install: add  source <(txray completions bash)  to ~/.bashrc
${SH_ALIASES}

_txray() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}"
  COMPREPLY=()
  case "\${COMP_WORDS[1]}" in
${optionsOnly('call', p.call)}
${subcommand('block', p.block, `elif [ "$COMP_CWORD" -eq 2 ]; then
      COMPREPLY=($(compgen -W "${words(BLOCK_TAGS)}" -- "$cur"))`)}
${optionsOnly('debug', p.debug)}
  completions)
    [ "$COMP_CWORD" -eq 2 ] && COMPREPLY=($(compgen -W "${words(SHELLS)}" -- "$cur"))
    return ;;
${subcommand('replay', p.replay, `else
      compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$cur")`)}
  esac
  case "$prev" in
${valueCases(p.lookup)}
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "${words(names(p.lookup))}" -- "$cur"))
  elif [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "call block debug completions replay" -- "$cur"))
  fi
}
complete -F _txray txray
`;
}

/** zsh's _arguments wants [, ], : and ' out of descriptions. */
const zshText = (s: string): string => s.replace(/[[\]:'\\]/g, ' ').replace(/\s+/g, ' ').trim();

function zsh(p: ReturnType<typeof programs>): string {
  const args = (specs: readonly Spec[]): string =>
    specs
      .map((s) => {
        const both = [s.short, s.long].filter((n): n is string => n !== undefined);
        const exclusive = both.length > 1 ? `'(${both.join(' ')})'` : '';
        const names = both.length > 1 ? `{${both.join(',')}}` : both.join('');
        const what = s.kind === 'choices' ? `(${words(s.choices)})` : s.kind === 'file' ? '_files' : s.kind === 'endpoint' ? '_txray_endpoints' : ' ';
        // ':' before a value, '::' before one that may be left out.
        // The value's name is _arguments' message: a ':' in it (<addr:wei>) would end the message and run the rest.
        const action = s.takesValue ? `${s.optionalValue ? '::' : ':'}${zshText(s.valueName.replace(/:/g, '/'))}:${what}` : '';
        return `    ${exclusive}${names}'[${zshText(s.description)}]${action}'`;
      })
      .join(' \\\n');
  return `#compdef txray
# txray completions for zsh: made by \`txray completions zsh\` from txray's own option definitions.
# Install: txray completions zsh > "\${fpath[1]}/_txray"  (then start a new shell), or
#          source <(txray completions zsh)  after compinit in ~/.zshrc
${SH_ALIASES}

_txray_endpoints() {
  local -a aliases
  aliases=(\${(f)"$(_txray_rpc_aliases)"})
  _describe -t aliases 'foundry.toml endpoint' aliases
}

_txray() {
  if [[ \${words[2]} == call ]]; then
    shift words; (( CURRENT-- ))
    _arguments -s \\
${args(p.call)} \\
    '*:: :'
  elif [[ \${words[2]} == block ]]; then
    shift words; (( CURRENT-- ))
    _arguments -s \\
${args(p.block)} \\
    '1:block:(${words(BLOCK_TAGS)})'
  elif [[ \${words[2]} == debug ]]; then
    shift words; (( CURRENT-- ))
    _arguments -s \\
${args(p.debug)} \\
    '1:transaction hash: '
  elif [[ \${words[2]} == completions ]]; then
    _arguments '1: :(completions)' '2:shell:(${words(SHELLS)})'
  elif [[ \${words[2]} == replay ]]; then
    shift words; (( CURRENT-- ))
    _arguments -s \\
${args(p.replay)} \\
    '1:recording:_files'
  else
    _arguments -s \\
${args(p.lookup)} \\
    '1: :(call block debug completions replay)' \\
    '*:transaction hash: '
  fi
}

if [[ \${zsh_eval_context[-1]} == loadautofunc ]]; then
  _txray "$@"
else
  compdef _txray txray
fi
`;
}

/** fish quotes with ' and escapes ' and \\ inside. */
const fishText = (s: string): string => `'${s.replace(/[\\']/g, (c) => `\\${c}`)}'`;

function fish(p: ReturnType<typeof programs>): string {
  const lines = (specs: readonly Spec[], condition: string): string[] =>
    specs.map((s) => {
      const parts = ['complete -c txray', `-n ${fishText(condition)}`];
      if (s.long !== undefined) parts.push(`-l ${s.long.slice(2)}`);
      if (s.short !== undefined) parts.push(`-s ${s.short.slice(1)}`);
      if (s.takesValue) parts.push(s.kind === 'file' ? '-r -F' : s.kind === 'choices' ? `-x -a ${fishText(words(s.choices))}` : s.kind === 'endpoint' ? "-x -a '(__txray_rpc_aliases)'" : '-x');
      parts.push(`-d ${fishText(s.description)}`);
      return parts.join(' ');
    });
  return `# txray completions for fish: made by \`txray completions fish\` from txray's own option definitions.
# Install: txray completions fish > ~/.config/fish/completions/txray.fish
function __txray_rpc_aliases
    set -l dir $PWD
    while true
        if test -f "$dir/foundry.toml"
            ${AWK_ALIASES} "$dir/foundry.toml" 2>/dev/null
            return 0
        end
        if test "$dir" = / -o -z "$dir"
            return 0
        end
        set dir (string replace -r '/[^/]*$' '' -- $dir)
        test -z "$dir"; and set dir /
    end
end

complete -c txray -f
complete -c txray -n '__fish_use_subcommand' -a 'call' -d 'what a call would do, before it is sent'
complete -c txray -n '__fish_use_subcommand' -a 'block' -d 'every transaction of a block, what failed, what looks like MEV'
complete -c txray -n '__fish_use_subcommand' -a 'debug' -d 'step through a transaction in the terminal'
complete -c txray -n '__fish_use_subcommand' -a 'completions' -d 'print a shell completion script'
complete -c txray -n '__fish_use_subcommand' -a 'replay' -d 'a run recorded with --record, again with no node'
complete -c txray -n '__fish_seen_subcommand_from replay' -F
complete -c txray -n '__fish_seen_subcommand_from block' -a '${words(BLOCK_TAGS)}'
complete -c txray -n '__fish_seen_subcommand_from completions' -a '${words(SHELLS)}'
${lines(p.lookup, 'not __fish_seen_subcommand_from call block debug completions replay').join('\n')}
${lines(p.call, '__fish_seen_subcommand_from call').join('\n')}
${lines(p.block, '__fish_seen_subcommand_from block').join('\n')}
${lines(p.debug, '__fish_seen_subcommand_from debug').join('\n')}
${lines(p.replay, '__fish_seen_subcommand_from replay').join('\n')}
`;
}

export function completionScript(shell: string): string {
  const p = programs();
  if (shell === 'bash') return bash(p);
  if (shell === 'zsh') return zsh(p);
  if (shell === 'fish') return fish(p);
  throw new UsageError(`txray completions takes bash, zsh or fish${shell === '' ? '' : `, not '${shell.slice(0, 20).replace(/[^\w-]/g, '?')}'`}.`);
}
