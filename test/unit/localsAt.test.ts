/**
 * Locals by name (localsAt), on a contract built in the set-up by solc from npm with the optimizer off
 * (its AST and source map as a build-info holds them) and run as calls in txray's EVM on an anvil, with
 * the contract's code put at an address by a state override: each type's decoding from the stack the run
 * really had (int8 sign-extended, calldata arrays as offset and length, memory and storage references),
 * block scopes whose sibling reuses a slot, a tuple declaration with a gap; where the AST alone cannot say
 * (modifiers, inline assembly), not known. The AST reading and the value decoding are also checked on
 * their own against solc's AST of the same source.
 */
import solc from 'solc';
import { type Abi, encodeFunctionData, toFunctionSelector } from 'viem';
import { beforeAll, describe, expect, test } from 'vitest';
import { DEV } from '../../scripts/lib/scenarios.mjs';
import { buildStepLog } from '../../src/debug/buildStepLog.js';
import { functionLayout } from '../../src/debug/functionLayout.js';
import { localsAt, type LocalsAt } from '../../src/debug/localsAt.js';
import { localValue } from '../../src/debug/localValue.js';
import { placeAt } from '../../src/debug/placeAt.js';
import type { DebugStepLog } from '../../src/debug/types.js';
import { buildInfoDebug } from '../../src/decode/loadDebug.js';
import { checksumAddress } from '../../src/decode/keccak.js';
import { createLocalRuns } from '../../src/localRun/localRuns.js';
import { anvilClient } from '../support/anvilClient.js';

const SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

library Lib {
    modifier plain(uint256 q) {
        uint256 t = q;
        _;
    }

    function lf(uint256 a) internal pure plain(a) returns (uint256) {
        uint256 b = a + 1;
        return b; // @lib
    }
}

abstract contract Base {
    modifier swapped() virtual {
        _;
    }
}

contract Kinds is Base {
    enum Color { Red, Green, Blue }
    struct Pair { uint256 a; uint256 b; }
    Pair stored;

    modifier positive(int8 x) {
        require(x != 0, "zero");
        _;
    }

    function values(int8 small, address who, bool flag, bytes4 tag, Color color, Kinds self) external pure returns (int16 out) {
        int16 widened = small;
        out = widened; // @values
        if (flag && who != address(self) && tag != 0 && color != Color.Red) out = -out;
    }

    function refs(bytes calldata blob, string memory text, uint256[] calldata nums) external view returns (uint256 out) {
        Pair storage p = stored;
        uint256[] memory list = new uint256[](2);
        out = blob.length + bytes(text).length + nums.length + p.a + list.length; // @refs
    }

    function scopes(uint256 n) external pure returns (uint256) {
        uint256 total = n;
        {
            uint256 first = 7;
            total += first; // @first
        }
        {
            uint256 second = 9;
            total += second; // @second
        }
        (uint256 x, , uint256 y) = triple();
        total += x + y; // @tuple
        return total;
    }

    function triple() internal pure returns (uint256, uint256, uint256) {
        return (1, 2, 3);
    }

    modifier tagged(uint256 k) {
        uint256 before = k * 2;
        _;
        before = 0;
    }

    modifier plain() {
        _;
    }

    modifier swapped() override {
        uint256 extra = 1;
        _;
    }

    function guarded(int8 x) external pure positive(x) returns (int8) {
        return x; // @guarded
    }

    function marked(uint256 v) external pure tagged(v + 1) plain swapped returns (uint256 w) {
        uint256 z = v + 3;
        w = z; // @marked
    }

    function useLib(uint256 a) external pure returns (uint256) {
        return Lib.lf(a);
    }

    function twice() external pure tagged(1) tagged(2) returns (uint256) {
        return 7; // @twice
    }

    function asm(uint256 v) external pure returns (uint256 r) {
        assembly {
            r := add(v, 1) // @asm
        }
    }

    function blank(uint256 a) external pure returns (uint256 r) {}

    function pick(function (uint256) external returns (uint256) f) external pure returns (bytes4) {
        return f.selector; // @pick
    }
}
`;

const AT = '0x00000000000000000000000000000000000c0de9';
const node = anvilClient();
let info: { input: unknown; output: any };
let abi: Abi;
let runtime: `0x${string}`;

beforeAll(() => {
  const input = { language: 'Solidity', sources: { 'K.sol': { content: SOURCE } }, settings: { evmVersion: 'cancun', optimizer: { enabled: false }, outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object', 'evm.deployedBytecode.sourceMap'], '': ['ast'] } } } };
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e: { formattedMessage: string }) => e.formattedMessage).join('\n'));
  info = { input, output };
  const c = output.contracts['K.sol'].Kinds;
  abi = c.abi;
  runtime = `0x${c.evm.deployedBytecode.object}`;
});

/** The 1-based line of the marker `// @name`. */
const lineOf = (name: string): number => SOURCE.split('\n').findIndex((l) => l.includes(`// @${name}`)) + 1;

/** The call `fn(args)` run with its steps and its step log matched to the build. */
async function stepLog(fn: string, args: unknown[] | `0x${string}`): Promise<DebugStepLog> {
  const call = { from: DEV.sender, to: AT, data: typeof args === 'string' ? args : encodeFunctionData({ abi, functionName: fn, args }) };
  const overrides = { [AT]: { code: runtime } };
  const runs = createLocalRuns(node.client, { config: () => Promise.resolve({ steps: true }), timeoutMs: 20_000 });
  const local = await runs.of({ kind: 'call', call, block: 'latest', overrides }, AbortSignal.timeout(20_000)).result();
  const artifact = { name: 'Kinds', abi, bytecode: `0x${info.output.contracts['K.sol'].Kinds.evm.bytecode.object}` as const, deployedBytecode: runtime, debug: buildInfoDebug(info as never, 'K.sol', 'Kinds') };
  return buildStepLog(local.steps!, local.calls.tree.root, new Map([[AT, runtime]]), [artifact]);
}

/** The locals at the first step of the marker's line. */
async function localsOn(fn: string, args: unknown[] | `0x${string}`, marker: string): Promise<LocalsAt> {
  const rec = await stepLog(fn, args);
  const i = [...Array(rec.steps.count).keys()].find((k) => placeAt(rec, k)?.line === lineOf(marker));
  if (i === undefined) throw new Error(`no step on line ${lineOf(marker)}`);
  return localsAt(rec, i);
}

/** name → value. */
const byName = (l: LocalsAt): Record<string, string> => (l.known ? Object.fromEntries(l.variables.map((v) => [v.name, v.value])) : { reason: l.reason });

describe('values by type, from the stack the run had', () => {
  test('int8 sign-extended, address and contract checksummed, bool, bytes4, enum; the return variable and a local', async () => {
    const who = '0x00000000000000000000000000000000000000ab';
    const l = await localsOn('values', [-5, who, true, '0xdeadbeef', 2, AT], 'values');
    expect(byName(l)).toEqual({ small: '-5', who: checksumAddress(who), flag: 'true', tag: '0xdeadbeef', color: '2', self: checksumAddress(AT), out: '0', widened: '-5' });
    expect(l.known && l.function).toBe('Kinds.values');
    expect(l.known && l.variables.map((v) => [v.name, v.kind, v.type])).toEqual([
      ['small', 'parameter', 'int8'], ['who', 'parameter', 'address'], ['flag', 'parameter', 'bool'], ['tag', 'parameter', 'bytes4'],
      ['color', 'parameter', 'enum Kinds.Color'], ['self', 'parameter', 'contract Kinds'], ['out', 'return', 'int16'], ['widened', 'local', 'int16'],
    ]);
  });

  test('references say where they live: a calldata array\'s offset and length (two words), memory, a storage slot', async () => {
    const l = await localsOn('refs', ['0x010203', 'hi', [4n, 5n]], 'refs');
    // After the selector: three head words (0x04–0x64); blob's length at 0x64, its bytes at 0x84; text from 0xa4 (length, one word); nums' length at 0xe4, its items at 0x104.
    // text is copied to the free memory (0x80: length, then a word), list after it (0xc0); stored is slot 0.
    expect(byName(l)).toEqual({ blob: 'calldata 0x84, length 3', text: 'memory 0x80', nums: 'calldata 0x104, length 2', out: '0', p: 'storage slot 0x0', list: 'memory 0xc0' });
    // Each dynamic calldata array takes two words: the offset below its length.
    expect(l.known && l.variables.map((v) => v.stackIndex)).toEqual([7, 5, 4, 2, 1, 0]);
  });

  test('an external function value: its address and selector', async () => {
    // viem does not encode the ABI's function type: 24 bytes, the address then the selector, left-aligned in a word.
    const data = `${toFunctionSelector('pick(function)')}${AT.slice(2)}12345678${'0'.repeat(16)}` as const;
    expect(byName(await localsOn('pick', data, 'pick'))).toEqual({ f: `address ${checksumAddress(AT)}, selector 0x12345678` });
  });
});

describe('scopes', () => {
  test('a block\'s local while inside it; its sibling\'s in the same slot after it; a tuple\'s two named parts (its gap takes no slot)', async () => {
    const rec = await stepLog('scopes', [5n]);
    const on = (marker: string): LocalsAt => localsAt(rec, [...Array(rec.steps.count).keys()].find((k) => placeAt(rec, k)?.line === lineOf(marker))!);
    expect(byName(on('first'))).toEqual({ n: '5', total: '5', first: '7' });
    const second = on('second');
    expect(byName(second)).toEqual({ n: '5', total: '12', second: '9' });
    const first = on('first');
    expect(second.known && first.known && second.variables.at(-1)!.stackIndex).toBe(first.known && first.variables.at(-1)!.stackIndex);
    expect(byName(on('tuple'))).toEqual({ n: '5', total: '21', x: '1', y: '3' });
  });

  test('every step of scopes(5), values(…), blank(6) (an empty body: the code after it moves the return variable into the parameter\'s slot) and marked(4) (three modifiers): each variable known only with a value it really has there', async () => {
    const allowed: Record<string, readonly string[]> = { v: ['4'], w: ['0', '7'], z: ['7'], a: ['6'], r: ['0'], n: ['5'], total: ['5', '12', '21', '25'], first: ['7'], second: ['9'], x: ['1'], y: ['3'], small: ['-5'], who: [checksumAddress(AT)], flag: ['true'], tag: ['0xdeadbeef'], color: ['2'], self: [checksumAddress(AT)], out: ['0', '-5', '5'], widened: ['-5'] };
    for (const rec of [await stepLog('scopes', [5n]), await stepLog('values', [-5, AT, true, '0xdeadbeef', 2, AT]), await stepLog('blank', [6n]), await stepLog('marked', [4n])]) {
      let known = 0;
      for (let i = 0; i < rec.steps.count; i++) {
        const l = localsAt(rec, i);
        if (!l.known) continue;
        known++;
        for (const v of l.variables) expect(allowed[v.name], `step ${i + 1}: ${v.name} = ${v.value}`).toContain(v.value);
      }
      expect(known).toBeGreaterThan(0);
    }
  });

  test('a function with modifiers: its own variables over the modifiers\' arguments and locals (an overriding modifier\'s, as the contract runs it), none of theirs shown', async () => {
    expect(byName(await localsOn('guarded', [3], 'guarded'))).toEqual({ x: '3' });
    // Under z: tagged's k (5) and before (10), plain's nothing, the overriding swapped's extra (1; the base's has none).
    const marked = await localsOn('marked', [4n], 'marked');
    expect(byName(marked)).toEqual({ v: '4', w: '0', z: '7' });
    expect(marked.known && marked.variables.map((v) => v.stackIndex)).toEqual([5, 4, 0]);
    expect(byName(await localsOn('twice', [], 'twice'))).toEqual({});
    // A library's function: its modifier is the library's, not the contract's of the same name.
    expect(await localsOn('useLib', [2n], 'lib')).toEqual({ known: false, reason: 'a modifier of a function outside the contract (a library\'s)' });
  });

  test('a step inside inline assembly, or in a modifier\'s body: not known, and why', async () => {
    expect(await localsOn('asm', [3n], 'asm')).toEqual({ known: false, reason: 'inside inline assembly: its variables share the stack' });
    const rec = await stepLog('marked', [4n]);
    const inModifier = [...Array(rec.steps.count).keys()].find((k) => placeAt(rec, k)?.line === SOURCE.split('\n').findIndex((l) => l.includes('uint256 before = k * 2;')) + 1);
    expect(localsAt(rec, inModifier!)).toEqual({ known: false, reason: 'in a modifier\'s code, or the compiler\'s around the function\'s body' });
  });
});

describe('the pure parts, against solc\'s AST of the same source', () => {
  const fn = (name: string): unknown => info.output.sources['K.sol'].ast.nodes.find((n: { name?: string }) => n.name === 'Kinds').nodes.find((n: { name: string }) => n.name === name);

  test('functionLayout: words per variable, locals in declaration order with their scopes, the opaque ranges, the modifiers', () => {
    const refs = functionLayout(fn('refs'))!;
    expect(refs.params.map((p) => [p.name, p.location, p.words])).toEqual([['blob', 'calldata', 2], ['text', 'memory', 1], ['nums', 'calldata', 2]]);
    expect(refs.locals.map((p) => [p.name, p.location, p.words])).toEqual([['p', 'storage', 1], ['list', 'memory', 1]]);
    const scopes = functionLayout(fn('scopes'))!;
    expect(scopes.locals.map((l) => l.name)).toEqual(['total', 'first', 'second', 'x', 'y']);
    const [total, first, second] = scopes.locals;
    expect(first!.scope).not.toEqual(second!.scope);
    expect(total!.scope).toEqual(scopes.body);
    expect(scopes.returns.map((r) => r.name)).toEqual(['']);
    expect(functionLayout(fn('marked'))!.modifiers).toEqual(['tagged', 'plain', 'swapped']);
    expect(functionLayout(fn('tagged'))!.placeholders.length).toBe(1);
    expect(functionLayout(fn('asm'))!.opaque.map((o) => o.why)).toEqual(['inside inline assembly: its variables share the stack']);
    expect(functionLayout({ nodeType: 'FunctionDefinition', body: { nodeType: 'Block', src: 'x' } })).toBeNull();
  });

  test('localValue: a uint8 cut to its bits, an int<N> sign-extended from them, an unknown type its word in hex', () => {
    const v = (typeIdentifier: string) => ({ name: 'v', typeString: typeIdentifier, typeIdentifier, location: 'default', words: 1 });
    expect(localValue(v('t_uint8'), [0x1ffn])).toBe('255');
    expect(localValue(v('t_int8'), [0x80n])).toBe('-128');
    expect(localValue(v('t_int256'), [(1n << 256n) - 1n])).toBe('-1');
    expect(localValue(v('t_bytes1'), [0xab00000000000000000000000000000000000000000000000000000000000000n])).toBe('0xab');
    expect(localValue(v('t_bool'), [2n])).toBe('true');
    expect(localValue(v('t_userDefinedValueType$_Price_$12'), [0x2an])).toBe('0x2a');
  });
});
