import { expect, test } from 'vitest';
import { accountsNamed } from '../../src/rpc/askAhead.js';
import type { BatchAnswer } from '../../src/rpc/createRpcClient.js';

const TO = '0xe7f1725e7734ce288f8367e1bb143e90bb3f0512';
const FROM = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const word = (hex: string): string => `0x${hex.padStart(64, '0')}`;
const slot = (n: number | string): string => `${TO}:${typeof n === 'string' ? n : word(n.toString(16))}`;
const IMPLEMENTATION = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc';
const LIBRARY = '5fbdb2315678afecb367f032d93f642f64180aa3';
const LOGIC = 'a51c1fc2f0d1a1b8494ed1fe312d7c3a78ed91c0';

/** The first batch as askAhead asks it (each account's three reads, then the slots), with these answers to the slots. */
function firstBatch(slots: ReadonlyArray<readonly [string, BatchAnswer]>) {
  const addresses = [FROM, TO];
  const accountAnswers: BatchAnswer[] = addresses.flatMap(() => [{ result: '0x1' }, { result: '0x0' }, { result: '0x' }]);
  return { addresses, slots: slots.map(([id]) => id), answers: Promise.resolve([...accountAnswers, ...slots.map(([, a]) => a)]) };
}

test('the recipient\'s first slots and its EIP-1967 slot: a word shaped as an address names an account to ask ahead', async () => {
  const named = await accountsNamed(
    firstBatch([
      [slot(0), { result: word(LIBRARY) }],
      [slot(1), { result: word('7') }],
      [slot(2), { result: word('0') }],
      [slot(IMPLEMENTATION), { result: word(LOGIC) }],
    ]),
  );
  expect(named).toEqual([`0x${LIBRARY}`, `0x${LOGIC}`]);
});

test('numbers, words wider than an address, errors, the accounts already asked and the holders\' balance entries name nothing', async () => {
  const named = await accountsNamed(
    firstBatch([
      // A token amount (10^24 wei), a word with bits above the 160th, a failed read, the sender itself.
      [slot(0), { result: word((10n ** 24n).toString(16)) }],
      [slot(1), { result: word(`1${LIBRARY}`) }],
      [slot(2), { error: 'missing trie node' }],
      [slot(3), { result: word(FROM.slice(2)) }],
      // A holder's balance entry (a mapping's key hash, not a first slot) holding an address-shaped word.
      [`${TO}:0x${'ab'.repeat(32)}`, { result: word(LIBRARY) }],
    ]),
  );
  expect(named).toEqual([]);
});

test('the same account named twice is asked once', async () => {
  const named = await accountsNamed(firstBatch([[slot(0), { result: word(LIBRARY) }], [slot(5), { result: word(LIBRARY) }]]));
  expect(named).toEqual([`0x${LIBRARY}`]);
});
