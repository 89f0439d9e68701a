import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { paramsBlock } from '@ethereumjs/block';
import { paramsEVM } from '@ethereumjs/evm';
import { paramsTx } from '@ethereumjs/tx';
import { paramsVM } from '@ethereumjs/vm';
import { type Abi, encodeFunctionData, type Hex } from 'viem';
import { describe, expect, test } from 'vitest';

// scripts/build.mjs (shallow-params) copies each entry of these tables as one object, where
// EthereumJS copies it through JSON: the same copy only while every value is a number, a string or null.
describe('the parameter tables the build copies shallowly', () => {
  test.each([
    ['paramsBlock', paramsBlock],
    ['paramsEVM', paramsEVM],
    ['paramsTx', paramsTx],
    ['paramsVM', paramsVM],
  ])('%s holds only numbers, strings and nulls, so a shallow copy equals the JSON copy', (_name, table) => {
    const entries = Object.values(table as Record<string, Record<string, unknown>>);
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) {
      for (const value of Object.values(entry)) expect(value === null || typeof value === 'number' || typeof value === 'string').toBe(true);
      expect({ ...entry }).toEqual(JSON.parse(JSON.stringify(entry)));
    }
  });
});

describe('the constants the build writes out', () => {
  test("known-sha256: SHA-256 of the empty input is the digest the build puts in @ethereumjs/util's place", () => {
    expect(createHash('sha256').update(new Uint8Array(0)).digest('hex')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});

// The build's edits of EthereumJS's interpreter and utilities (scripts/build.mjs: lazy-run-state,
// sync-gas, plain-steps, the padding and word reading of @ethereumjs/util, address-text) must leave every
// result as EthereumJS's own: the same transactions run on the built EVM (dist/evm.cjs, `npm run build`)
// and on the packages as published, compared field by field, frame by frame.
/** What the test uses of the EVM's file, which the published packages export too. */
type Evm = Pick<typeof import('../../src/evm/evmEngine.js'), 'Common' | 'Mainnet' | 'createVM' | 'createAddressFromString' | 'Account' | 'hexToBytes' | 'bytesToHex' | 'createLegacyTx' | 'runTx'>;
const built = createRequire(import.meta.url)('../../dist/evm.cjs') as Evm;
const published: Evm = { ...(await import('@ethereumjs/common')), ...(await import('@ethereumjs/tx')), ...(await import('@ethereumjs/util')), ...(await import('@ethereumjs/vm')) };
const showcase = (JSON.parse(readFileSync(new URL('../../contracts/out/Scenarios.json', import.meta.url), 'utf8')) as { contracts: { Showcase: { abi: Abi; deployedBytecode: string } } }).contracts.Showcase;

type Frame = { pc: unknown; op: unknown; gasLeft: unknown; words: unknown; keys: string; returned: string; error: unknown; gasUsed: unknown };

/** One call of Showcase (its runtime code put at an address with a balance) on `evm`, with what each frame ended with. */
async function runShowcase(evm: Evm, data: Hex, gasLimit: bigint, steps: boolean) {
  // Only run() is payable: the others are sent no value.
  const value = data.startsWith(encodeFunctionData({ abi: showcase.abi, functionName: 'run', args: [0n] }).slice(0, 10)) ? 5n : 0n;
  const common = new evm.Common({ chain: evm.Mainnet, hardfork: 'prague' });
  const vm = await evm.createVM({ common });
  const sender = evm.createAddressFromString(`0x${'11'.repeat(20)}`);
  const target = evm.createAddressFromString(`0x${'22'.repeat(20)}`);
  await vm.stateManager.putAccount(sender, new evm.Account(0n, 10n ** 20n));
  await vm.stateManager.putAccount(target, new evm.Account(0n, 1000n));
  await vm.stateManager.putCode(target, evm.hexToBytes(showcase.deployedBytecode as Hex));
  const frames: Frame[] = [];
  let stepCount = 0;
  vm.evm.events!.on('afterMessage', ((r: { execResult: { runState?: Record<string, unknown>; returnValue: Uint8Array; exceptionError?: { error: string }; executionGasUsed: bigint } }) => {
    const s = r.execResult.runState;
    frames.push({ pc: s?.programCounter, op: s?.opCode, gasLeft: s?.gasLeft, words: s?.memoryWordCount, keys: Object.keys(s ?? {}).join(), returned: evm.bytesToHex(r.execResult.returnValue), error: r.execResult.exceptionError?.error, gasUsed: r.execResult.executionGasUsed });
  }) as never);
  if (steps) vm.evm.events!.on('step', (() => void stepCount++) as never);
  const tx = evm.createLegacyTx({ nonce: 0n, gasPrice: 10n, gasLimit, to: target, value, data }, { common, freeze: false });
  tx.getSenderAddress = () => sender;
  const r = await evm.runTx(vm, { tx, skipHardForkValidation: true, skipBlockGasLimitValidation: true });
  const logs = r.receipt.logs.map(([address, topics, bytes]) => [evm.bytesToHex(address), topics.map((t) => evm.bytesToHex(t)), evm.bytesToHex(bytes)]);
  const storage = evm.bytesToHex(await vm.stateManager.getStorage(target, new Uint8Array(32)));
  return { gas: r.totalGasSpent, error: r.execResult.exceptionError?.error, returned: evm.bytesToHex(r.execResult.returnValue), logs, storage, frames, stepCount };
}

describe('the built EVM runs as the published EthereumJS', () => {
  test.each([
    ['run(3): creates, create2, calls with value, a delegatecall, a caught revert, a selfdestruct, events, recursion', encodeFunctionData({ abi: showcase.abi, functionName: 'run', args: [3n] }), 3_000_000n],
    ['recurse(40)', encodeFunctionData({ abi: showcase.abi, functionName: 'recurse', args: [40n] }), 3_000_000n],
    ['failDeep(): a revert from two calls down', encodeFunctionData({ abi: showcase.abi, functionName: 'failDeep' }), 3_000_000n],
    ['failIndex(3): a panic', encodeFunctionData({ abi: showcase.abi, functionName: 'failIndex', args: [3n] }), 100_000n],
    ['failOverflow(255): a panic', encodeFunctionData({ abi: showcase.abi, functionName: 'failOverflow', args: [255] }), 100_000n],
    ['failCustom(): a custom error', encodeFunctionData({ abi: showcase.abi, functionName: 'failCustom' }), 100_000n],
    ['invalidOp(): an invalid opcode', encodeFunctionData({ abi: showcase.abi, functionName: 'invalidOp' }), 100_000n],
    ['evil(): a log, then a revert', encodeFunctionData({ abi: showcase.abi, functionName: 'evil' }), 100_000n],
    ['burn(): out of gas in a loop', encodeFunctionData({ abi: showcase.abi, functionName: 'burn' }), 120_000n],
    ['a selector it does not have', '0xdeadbeef' as Hex, 100_000n],
  ])('%s: the same result, gas, logs, storage and frames, with and without a step listener', async (_what, data, gas) => {
    const expected = await runShowcase(published, data, gas, false);
    expect(expected.frames.length).toBeGreaterThan(0);
    expect(await runShowcase(built, data, gas, false)).toEqual(expected);
    const stepped = await runShowcase(published, data, gas, true);
    expect(stepped.stepCount).toBeGreaterThan(0);
    expect(await runShowcase(built, data, gas, true)).toEqual(stepped);
  });
});
