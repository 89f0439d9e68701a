/**
 * Which deployed codes a project's build no longer matches, on the scenario contracts' real runtime codes: said
 * only where one artifact has the same dispatch and compiler with another metadata hash, never on less.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { withoutMetadata } from '../../src/locate/matchCode.js';
import { rebuiltCodes } from '../../src/locate/rebuiltCodes.js';
import type { Hex } from '../../src/raw/types.js';

const compiled = JSON.parse(readFileSync(new URL('../../contracts/out/Scenarios.json', import.meta.url), 'utf8')).contracts as Record<string, { deployedBytecode: Hex }>;
const deployed = compiled.Showcase!.deployedBytecode;
const ADDRESS = '0x00000000000000000000000000000000000000aa';

/** The code with one more instruction before its tail, and the tail's last metadata-hash byte changed: another build of the same contract. */
function rebuilt(code: Hex, tailByte = 'ff', solc?: string): Hex {
  const hex = code.slice(2);
  const body = withoutMetadata(hex);
  let tail = hex.slice(body.length);
  const at = tail.indexOf('64736f6c6343');
  tail = `${tail.slice(0, at - 2)}${tailByte}${tail.slice(at)}`;
  if (solc !== undefined) tail = tail.replace(/64736f6c6343[0-9a-f]{6}/, `64736f6c6343${solc}`);
  return `0x${body}5b${tail}`;
}

/** The metadata hash's last byte, as the code has it. */
function hashByte(code: Hex): string {
  const hex = code.slice(2);
  const tail = hex.slice(withoutMetadata(hex).length);
  const at = tail.indexOf('64736f6c6343');
  return tail.slice(at - 2, at);
}

const artifact = (name: string, code: Hex, file = `out/Scenarios.sol/${name}.json`) => ({ name, deployedBytecode: code, file });
const codes = new Map([[ADDRESS, deployed]]);

test('the same dispatch and compiler, another metadata hash and other code: said, with the artifact file', () => {
  expect(rebuiltCodes(codes, [ADDRESS], [artifact('Showcase', rebuilt(deployed)), artifact('Token', compiled.Token!.deployedBytecode)])).toEqual([{ address: ADDRESS, name: 'Showcase', file: 'out/Scenarios.sol/Showcase.json' }]);
});

test.each([
  ['the code matches the artifact', [artifact('Showcase', deployed)]],
  ['another contract (other functions)', [artifact('Token', rebuilt(compiled.Token!.deployedBytecode))]],
  ['another compiler version', [artifact('Showcase', rebuilt(deployed, 'ff', '000800'))]],
  ['the same metadata hash (not another build)', [artifact('Showcase', rebuilt(deployed, hashByte(deployed)))]],
  ['two artifacts of different names could be it', [artifact('Showcase', rebuilt(deployed)), artifact('Showcase2', rebuilt(deployed, 'fe'))]],
  ['an artifact that names no file (not the project\'s)', [{ name: 'Showcase', deployedBytecode: rebuilt(deployed) }]],
])('nothing said: %s', (_what, artifacts) => {
  expect(rebuiltCodes(codes, [ADDRESS], artifacts)).toEqual([]);
});

test('a code with no function dispatch (a proxy) is never said to be a rebuild', () => {
  const proxy = compiled.Proxy1967!.deployedBytecode;
  expect(rebuiltCodes(new Map([[ADDRESS, proxy]]), [ADDRESS], [artifact('Proxy1967', rebuilt(proxy))])).toEqual([]);
});
