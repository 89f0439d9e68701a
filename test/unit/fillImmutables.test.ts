/**
 * An artifact's immutables taken from the code deployed at the address (--override-code): the buggy and
 * the fixed Bank of test/fixtures/rerun, compiled with solc from npm; the deployed code is the buggy
 * build with its immutables written where solc's immutableReferences say.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keccak256, toHex } from 'viem';
import { describe, expect, test } from 'vitest';
import { fillImmutables } from '../../src/locate/fillImmutables.js';
import type { Hex } from '../../src/raw/types.js';
import { writeFoundryProject } from '../support/sourceProject.js';

type Refs = Record<string, Array<{ start: number; length: number }>>;

function artifactOf(which: string): { code: Hex; refs: Refs } {
  const dir = mkdtempSync(join(tmpdir(), `txray-immutables-${which}-`));
  writeFoundryProject(dir, { fixture: new URL(`../fixtures/rerun/${which}`, import.meta.url).pathname });
  const a = JSON.parse(readFileSync(join(dir, 'out', 'Bank.sol', 'Bank.json'), 'utf8'));
  return { code: a.deployedBytecode.object, refs: a.deployedBytecode.immutableReferences };
}

/** `code` with the immutables written in declaration order (the lower AST id first). */
function deployed({ code, refs }: { code: Hex; refs: Refs }, words: readonly string[]): Hex {
  let hex = code.slice(2);
  Object.keys(refs).map(Number).sort((a, b) => a - b).forEach((id, i) => {
    for (const { start } of refs[String(id)]!) hex = hex.slice(0, start * 2) + words[i]! + hex.slice(start * 2 + 64);
  });
  return `0x${hex}`;
}

const masksOf = (refs: Refs): Array<[number, number]> => Object.values(refs).flat().map((r) => [r.start, r.length]);
const buggy = artifactOf('buggy');
const fixed = artifactOf('fixed');
const WORDS = [(5000).toString(16).padStart(64, '0'), 'f39fd6e51aad88f6f4ce6ab8827279cfffb92266'.padStart(64, '0')];

describe('fillImmutables', () => {
  test('the fixed build gets the deployed buggy build\'s immutables, by its immutableReferences or (Hardhat) its zero PUSH32s', () => {
    const there = deployed(buggy, WORDS);
    expect(fillImmutables(fixed.code, masksOf(fixed.refs), there)).toBe(deployed(fixed, WORDS));
    expect(fillImmutables(fixed.code, [], there)).toBe(deployed(fixed, WORDS));
  });

  test('refused where the PUSH32s do not pair: another constant, none deployed', () => {
    const there = deployed(buggy, WORDS);
    // Withdrawn's topic (a PUSH32 that is no immutable) with its last byte changed.
    const topic = keccak256(toHex('Withdrawn(address,uint256)')).slice(2);
    expect(there).toContain(`7f${topic}`);
    const other = there.replace(topic, `${topic.slice(0, 62)}${topic.endsWith('00') ? '01' : '00'}`) as Hex;
    expect(fillImmutables(fixed.code, masksOf(fixed.refs), other)).toBe("its PUSH32 constants differ from the artifact's");
    expect(fillImmutables(fixed.code, masksOf(fixed.refs), '0x')).toBe('there is no code there to take them from');
  });

  test('code without immutables is used as it is', () => {
    expect(fillImmutables('0x6001600055', [], '0x')).toBe('0x6001600055');
  });
});
