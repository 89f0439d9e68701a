// `npm run readme`: every example of txray's output in README.md and docs/*.md, written by running it.
// Starts a real anvil, sends the scenarios of scripts/lib/scenarios.mjs, runs the built CLI
// (bin/txray.cjs, NO_COLOR=1, COLUMNS=100) from a Foundry project of the scenario contracts (so calls,
// events and errors have names; its foundry.toml names the anvil `local` in [rpc_endpoints]), and
// rewrites each block between `<!-- example: NAME -->` and `<!-- /example -->` with the output of the
// command recorded for NAME below. Nothing is written unless every example ran as expected; anvil is
// stopped at the end, also when something fails or the run is interrupted.
//
// anvil's addresses and hashes are the same for the same sequence of transactions, so a second run
// writes the same text.
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startAnvil } from './lib/anvil.mjs';
import { DEV, makeScenarios, writeFoundryProject } from './lib/scenarios.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const WIDTH = '100';

/** The files whose examples are rewritten. */
function documents() {
  const docs = join(root, 'docs');
  return [join(root, 'README.md'), ...readdirSync(docs).filter((f) => f.endsWith('.md')).sort().map((f) => join(docs, f))];
}

/** The environment txray runs in: no colour, a fixed width, and nothing from this shell that would change its answer. */
function cleanEnv(extra = {}) {
  const env = { ...process.env };
  for (const name of [
    'FORCE_COLOR', 'NO_COLOR', 'ETH_RPC_URL', 'TXRAY_ONLINE', 'TXRAY_CACHE_DIR', 'ETHERSCAN_API_KEY', 'FOUNDRY_PROFILE', 'FOUNDRY_OUT',
    'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy',
  ]) delete env[name];
  return { ...env, NO_COLOR: '1', COLUMNS: WIDTH, ...extra };
}

/** A word as a POSIX shell needs it written. */
const quote = (w) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(w) ? w : `'${w.replaceAll("'", `'\\''`)}'`);

/**
 * `$ txray …` as typed: broken with `\\` where a line would pass 100 columns (an option stays with its
 * value), and an optional comment, on the line above where it does not fit after the command.
 */
function commandLine(args, note) {
  const units = [];
  const words = args.map(quote);
  for (let i = 0; i < words.length; i++) {
    const takesValue = words[i].startsWith('-') && i + 1 < words.length && !words[i + 1].startsWith('-');
    units.push(takesValue ? `${words[i]} ${words[++i]}` : words[i]);
  }
  const lines = [];
  let line = '$ txray';
  for (const unit of units) {
    if (line.length + 1 + unit.length > 98 && line.trim() !== '$ txray') {
      lines.push(`${line} \\`);
      line = `    ${unit}`;
    } else line += ` ${unit}`;
  }
  lines.push(line);
  if (note === undefined) return lines.join('\n');
  if (lines.length === 1 && line.length + 7 + note.length <= 100) return `${line}     # ${note}`;
  return [`# ${note}`, ...lines].join('\n');
}

/** Lines from the one starting with `from` up to (not including) the one starting with `until`, or the end. */
function sections(text, from, until) {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith(from));
  if (start < 0) throw new Error(`no "${from}" in the output:\n${text}`);
  const stop = until === undefined ? -1 : lines.findIndex((l, i) => i > start && l.startsWith(until));
  return lines.slice(start, stop < 0 ? undefined : stop).join('\n').trimEnd();
}

const tidy = (text) => text.replace(/[ \t]+$/gm, '').trimEnd();

/** What is recorded for every NAME: a function of the run's context that returns the block's text (and its fence's language). */
function examples({ h, token, showcase, txray, shell }) {
  const lookup = (hash, ...more) => [hash, ...more, '--rpc-url', 'local'];
  const jqBlock = (recipes) => {
    const out = ['# $TX: the showcase transaction at the top of the README, unless a comment names another'];
    for (const r of recipes) {
      const result = tidy(shell(r.command, r.tx));
      out.push('', `# ${r.title}`);
      if (result === '') out.push(r.command);
      else if (!result.includes('\n') && Math.max(r.command.length + 3, 70) + result.length <= 110) out.push(`${r.command.padEnd(Math.max(r.command.length + 1, 69))} # ${result}`);
      else out.push(r.command, ...result.split('\n').map((l) => `# ${l}`));
    }
    return { lang: 'sh', text: out.join('\n') };
  };
  const recipes = {
    status: { title: 'status', command: 'txray "$TX" --json | jq -r .status', tx: h.showcase },
    gasUsed: { title: 'gas used, in decimal', command: `printf '%d\\n' "$(txray "$TX" --json | jq -r .receipt.gasUsed)"`, tx: h.showcase },
    failing: {
      title: "the failing calls: where, whom, what error (TX: the failDeep() transaction)",
      command: `txray "$TX" --json | jq -c '[.calls | .. | objects | select(has("traceAddress") and .error != null) | {at: .traceAddress, to, error}]'`,
      tx: h.deep,
    },
    failure: { title: 'why it failed (TX: the failDeep() transaction)', command: 'txray "$TX" --json | jq -c .failure', tx: h.deep },
    revert: { title: 'why it failed (TX: the failed transaction above)', command: `txray "$TX" --json | jq -r '.failure.revert.signature'`, tx: h.custom },
    signature: { title: 'what was called, by name', command: `txray "$TX" --json | jq -r '.function.signature'`, tx: h.showcase },
    events: { title: 'events by name', command: `txray "$TX" --json | jq -c '[.logs[].event.name]'`, tx: h.showcase },
    tokens: {
      title: 'the token transfers (TX: a token transfer)',
      command: `txray "$TX" --json | jq -c '.transfers[] | select(.kind == "ERC-20")'`,
      tx: h.tokenTransfer,
    },
    kinds: {
      title: 'how many calls of each kind',
      command: `txray "$TX" --json | jq -r '[.calls | .. | objects | select(has("traceAddress"))] | group_by(.callType // .type) | map("\\(.[0].callType // .[0].type) \\(length)") | .[]'`,
      tx: h.showcase,
    },
  };
  return {
    // README: the top example, as typed inside a Foundry project.
    showcase: () => {
      const args = lookup(h.showcase);
      return commandLine(args, 'run inside a Foundry project') + '\n' + txray(args, 0);
    },
    failed: () => txray(lookup(h.custom), 1),
    many: () => {
      const args = [h.showcase, h.reason, `0x${'ab'.repeat(32)}`, 'nope', '--rpc-url', 'local'];
      return commandLine(args) + '\n' + txray(args, 3);
    },
    'call-revert': () => {
      const args = ['call', token, 'transfer', DEV.other, '100000000ether', '--from', DEV.sender, '--rpc-url', 'local'];
      return commandLine(args) + '\n' + txray(args, 1);
    },
    // docs/call.md: the demo's call, at block 2 (the showcase deployed, run(3) not yet sent).
    'call-showcase': () => {
      const args = ['call', showcase, 'run(uint256)', '3', '--value', '10', '--from', DEV.sender, '--block', '2', '--rpc-url', 'local'];
      return commandLine(args) + '\n' + txray(args, 0);
    },
    // docs/decoding.md: the showcase's tree, abridged, and a custom error from a project artifact.
    decoding: () => {
      const tree = sections(txray(lookup(h.showcase), 0), 'Call tree').split('\n');
      const kept = tree.filter((l, i) => i < 2 || /create Child|Child(\([^)]*\))?::ping|Logic::bump|Child(\([^)]*\))?::fail/.test(l));
      return [...kept, '  …', sections(txray(lookup(h.tokenFail), 1), 'Why it failed', 'Logs')].join('\n');
    },
    // docs/state.md: the three sections --state adds.
    state: () => sections(txray(lookup(h.stateShow, '--state'), 0), 'Balance changes', 'Call tree'),
    // docs/report.md: the gas profile table.
    gas: () => sections(txray(lookup(h.showcase, '--gas'), 0), 'Gas profile'),
    // docs/nodes.md: the callTracer's events drawn inside the tree.
    'events-in-tree': () => sections(txray(lookup(h.showcase, '--tracer', 'geth'), 0), 'Call tree'),
    // docs/json.md and the README's JSON in brief.
    jq: () => jqBlock([recipes.status, recipes.gasUsed, recipes.failing, recipes.failure, recipes.signature, recipes.events, recipes.tokens, recipes.kinds]),
    'jq-brief': () => jqBlock([recipes.status, recipes.revert, recipes.events]),
  };
}

/** The new text of a document: each marked block replaced; an unknown NAME is an error. */
function rewrite(file, text, outputs, used) {
  return text.replace(/^(<!-- example: ([\w-]+) -->\n)[\s\S]*?^(<!-- \/example -->)$/gm, (_all, open, name, close) => {
    const out = outputs.get(name);
    if (out === undefined) throw new Error(`${file}: no example is recorded for '${name}' in scripts/readme-examples.mjs`);
    used.add(name);
    return `${open}\`\`\`${out.lang}\n${out.text}\n\`\`\`\n${close}`;
  });
}

if (!existsSync(join(root, 'dist', 'txray.cjs'))) {
  console.error('no dist/txray.cjs: run `node scripts/build.mjs` first (`npm run readme` does both).');
  process.exit(1);
}

const temp = mkdtempSync(join(tmpdir(), 'txray-readme-'));
const project = join(temp, 'project');
// The built CLI (bin/ and dist/) is copied first, so a build started meanwhile (npm test builds too)
// cannot change it under the run.
const bin = join(temp, 'cli', 'bin', 'txray.cjs');
let anvil = null;
let stopping = null;
async function cleanUp() {
  stopping ??= (async () => {
    try {
      if (anvil !== null) await anvil.stop();
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
  })();
  return stopping;
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping anvil`);
    cleanUp().finally(() => process.exit(130));
  });
}

try {
  cpSync(join(root, 'bin'), join(temp, 'cli', 'bin'), { recursive: true });
  cpSync(join(root, 'dist'), join(temp, 'cli', 'dist'), { recursive: true });
  writeFoundryProject(project);
  anvil = await startAnvil();
  appendFileSync(join(project, 'foundry.toml'), `\n[rpc_endpoints]\nlocal = "${anvil.url}"\n`);
  console.log(`anvil on ${anvil.url}; sending the scenarios…`);
  const { hashes: h, token, showcase } = await makeScenarios(anvil.rpc);

  const txray = (args, expected) => {
    const r = spawnSync(process.execPath, [bin, ...args], { cwd: project, env: cleanEnv(), encoding: 'utf8', timeout: 60_000 });
    if (r.status !== expected) throw new Error(`txray ${args.join(' ')}: exit ${r.status ?? r.signal}, expected ${expected}\n${r.stdout}${r.stderr}`);
    return tidy(r.stdout);
  };
  const shell = (command, tx) => {
    const script = `txray() { "$TXRAY_NODE" "$TXRAY_BIN" "$@"; }\n${command}`;
    const r = spawnSync('bash', ['-c', script], {
      cwd: project,
      env: cleanEnv({ TX: tx, ETH_RPC_URL: 'local', TXRAY_NODE: process.execPath, TXRAY_BIN: bin }),
      encoding: 'utf8',
      timeout: 60_000,
    });
    if (r.error !== undefined) throw new Error(`bash: ${r.error.message} (the jq recipes need bash and jq)`);
    if (r.status !== 0) throw new Error(`${command}: exit ${r.status ?? r.signal} (the jq recipes need bash and jq)\n${r.stdout}${r.stderr}`);
    return r.stdout;
  };

  const recorded = examples({ h, token, showcase, txray, shell });
  const outputs = new Map();
  for (const [name, make] of Object.entries(recorded)) {
    const made = make();
    outputs.set(name, typeof made === 'string' ? { lang: '', text: tidy(made) } : made);
    console.log(`  ${name}`);
  }

  // Every document rewritten in memory first: nothing is written if one of them names an unknown example.
  const used = new Set();
  const changed = documents().map((file) => {
    const before = readFileSync(file, 'utf8');
    return { file, before, after: rewrite(file.slice(root.length), before, outputs, used) };
  });
  for (const { file, before, after } of changed) {
    if (after !== before) writeFileSync(file, after);
    console.log(`${after === before ? 'unchanged' : 'rewritten'}: ${file.slice(root.length)}`);
  }
  for (const name of outputs.keys()) if (!used.has(name)) console.warn(`warning: no block is marked <!-- example: ${name} -->`);
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
