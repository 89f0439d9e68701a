/**
 * Revert data passed on as a value: a Foundry project (test/fixtures/caught, compiled with solc from
 * npm in the set-up) whose Sweeper catches a Sink's custom error, Error(string) and Panic and emits each
 * as `bytes reason`, or returns it. On a real anvil; the expected errors are the node's log data and
 * return data, decoded here with the artifact's ABI (viem).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Abi, decodeErrorResult, decodeEventLog, encodeDeployData, encodeFunctionData, type Hex } from 'viem';
import { describe, expect, test } from 'vitest';
import { DEV, receipt, send } from '../../scripts/lib/scenarios.mjs';
import { jsonOf, runTxray } from '../support/runTxray.js';
import { type Anvil, withAnvil } from '../support/scenarioNode.js';
import { schemaErrors } from '../support/schema.js';
import { type Compiled, writeFoundryProject } from '../support/sourceProject.js';

const project = mkdtempSync(join(tmpdir(), 'txray-caught-'));
const compiled: Record<string, Compiled> = writeFoundryProject(project, { fixture: new URL('../fixtures/caught', import.meta.url).pathname });
const TOKEN = '0x000000000000000000000000000000000000dead';

let anvil: Anvil;
let sweeper: string;
let sweep: string;
withAnvil(
  async (rpc) => {
    const deploy = async (name: string, args: unknown[] = []): Promise<string> => (await receipt(rpc, await send(rpc, { data: encodeDeployData({ abi: compiled[name]!.abi as Abi, bytecode: compiled[name]!.bytecode as Hex, args }) }))).contractAddress;
    const sink = await deploy('Sink');
    const at = await deploy('Sweeper', [sink]);
    const hash = await send(rpc, { to: at, gas: '0x100000', data: encodeFunctionData({ abi: compiled.Sweeper!.abi as Abi, functionName: 'sweep', args: [TOKEN, 7n] }) });
    await receipt(rpc, hash);
    return { sweeper: at, sweep: hash };
  },
  (s) => {
    ({ anvil, sweeper, sweep } = s);
  },
);

/** An error's revert data as the views name it, decoded with the project's ABIs. */
function expected(data: Hex): { kind: string; name: string; args: readonly unknown[] } {
  const abi = [...(compiled.Sink!.abi as Abi), { type: 'error', name: 'Error', inputs: [{ type: 'string', name: 'message' }] }, { type: 'error', name: 'Panic', inputs: [{ type: 'uint256', name: 'code' }] }] as Abi;
  const e = decodeErrorResult({ abi, data });
  return { kind: e.errorName === 'Error' || e.errorName === 'Panic' ? e.errorName : 'custom', name: e.errorName, args: (e.args ?? []) as readonly unknown[] };
}

describe('a caught revert passed on as bytes', () => {
  test("in an event: each reason decoded as the error it is (custom, Error, Panic), in text and JSON", async () => {
    const logs: Array<{ data: Hex; topics: [Hex, ...Hex[]] }> = (await anvil.rpc('eth_getTransactionReceipt', [sweep])).logs;
    const reasons = logs.map((l) => (decodeEventLog({ abi: compiled.Sweeper!.abi as Abi, data: l.data, topics: l.topics }).args as unknown as { reason: Hex }).reason);
    const want = reasons.map(expected);
    expect(want.map((w) => w.kind)).toEqual(['custom', 'Error', 'Panic']);
    const doc = jsonOf(await runTxray([sweep, '--rpc-url', anvil.url, '--json'], {}, undefined, project));
    expect(schemaErrors(doc)).toBe('');
    const args = doc.logs.map((l: { event: { args: Array<{ name: string; value: string; revert?: Record<string, any> }> } }) => l.event.args.find((a) => a.name === 'reason')!);
    expect(args.map((a: { value: string }) => a.value)).toEqual(reasons);
    const [custom, error, panic] = args.map((a: { revert?: Record<string, any> }) => a.revert);
    expect(custom).toMatchObject({ kind: 'custom', name: want[0]!.name, selector: reasons[0]!.slice(0, 10), data: reasons[0] });
    expect(custom.args.map((a: { value: string }) => a.value.toLowerCase())).toEqual(want[0]!.args.map((v) => String(v).toLowerCase()));
    expect(error).toEqual({ kind: 'Error', message: want[1]!.args[0] });
    expect(panic).toMatchObject({ kind: 'Panic', code: `0x${(want[2]!.args[0] as bigint).toString(16)}` });
    const text = (await runTxray([sweep, '--rpc-url', anvil.url], {}, undefined, project)).stdout;
    expect(text).toContain(`reason: ${want[0]!.name}(token: 0x0000…dEaD, amount: ${want[0]!.args[1]}) (revert data)`);
    expect(text).toContain(`reason: Error("${want[1]!.args[0]}") (revert data)`);
    // Spelled as every view spells a Panic (describeRevert): its code in two digits at least, then what it means.
    expect(text).toMatch(new RegExp(`reason: Panic\\(0x${(want[2]!.args[0] as bigint).toString(16).padStart(2, '0')}\\): arithmetic overflow or underflow \\(revert data\\)`));
    expect(text).not.toContain(`reason: ${reasons[0]!.slice(0, 10)}`);
  });

  test('as a return value: the Returns row and the tree decode it; bytes that are no known error stay hex', async () => {
    const data = encodeFunctionData({ abi: compiled.Sweeper!.abi as Abi, functionName: 'lastReason', args: [TOKEN, 9n] });
    const returned = await anvil.rpc('eth_call', [{ to: sweeper, data }, 'latest']);
    const reason = (BigInt(returned.slice(0, 66)) === 32n ? `0x${returned.slice(130, 130 + 2 * Number(BigInt(`0x${returned.slice(66, 130)}`)))}` : '0x') as Hex;
    const want = expected(reason);
    const r = await runTxray(['call', sweeper, 'lastReason', TOKEN, '9', '--from', DEV.sender, '--rpc-url', anvil.url], {}, undefined, project);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toMatch(new RegExp(`\\n  Returns +${want.name}\\(token: 0x0000…dEaD, amount: 9\\) \\(revert data\\)\\n`));
    expect(r.stdout.slice(r.stdout.indexOf('Call tree'))).toMatch(new RegExp(`lastReason\\(.*\\) · [\\d,]+ gas ← ${want.name}\\(token: 0x0000…dEaD, amount: 9\\) \\(revert data\\)\\n`));
    const doc = jsonOf(await runTxray(['call', sweeper, 'lastReason', TOKEN, '9', '--from', DEV.sender, '--rpc-url', anvil.url, '--json'], {}, undefined, project));
    expect(schemaErrors(doc)).toBe('');
    expect(doc.calls.outputs[0]).toMatchObject({ type: 'bytes', value: reason, revert: { kind: 'custom', name: want.name, data: reason } });
    // With the Sweeper's ABI alone the custom error is not known: the bytes stay as they are.
    const bare = mkdtempSync(join(tmpdir(), 'txray-caught-bare-'));
    const abi = join(bare, 'sweeper.json');
    writeFileSync(abi, JSON.stringify(compiled.Sweeper!.abi));
    const plain = await runTxray(['call', sweeper, '--data', data, '--abi', abi, '--from', DEV.sender, '--rpc-url', anvil.url, '--json'], {}, undefined, bare);
    expect(jsonOf(plain).calls.outputs).toEqual([{ name: '', type: 'bytes', value: reason }]);
  });
});
