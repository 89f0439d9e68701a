// Deploy the Scenarios.sol contracts on an anvil and send one transaction per scenario.
// Shared by the end-to-end tests, `npm run demo` and the benchmark.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeDeployData, encodeFunctionData, parseGwei, stringToHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

const artifacts = JSON.parse(readFileSync(new URL('../../contracts/out/Scenarios.json', import.meta.url), 'utf8')).contracts;

/**
 * Lay the compiled contracts out as a Foundry project in `dir` (foundry.toml, out/Scenarios.sol/<Name>.json),
 * with the storage layouts Foundry writes when foundry.toml asks for them. With `sources`, as a default
 * `forge build` leaves it: Scenarios.sol beside foundry.toml (the path the build compiled it under), each
 * artifact's source maps, metadata and file id, and the build's id → path table, so a failure is placed in the source.
 */
export function writeFoundryProject(dir, { sources = false } = {}) {
  mkdirSync(join(dir, 'out', 'Scenarios.sol'), { recursive: true });
  writeFileSync(join(dir, 'foundry.toml'), `[profile.default]\nsrc = "${sources ? '.' : 'src'}"\nout = "out"\nextra_output = ["storageLayout"]\n`);
  for (const [name, c] of Object.entries(artifacts)) {
    const debug = sources ? { metadata: JSON.parse(c.metadata), id: 0 } : {};
    writeFileSync(
      join(dir, 'out', 'Scenarios.sol', `${name}.json`),
      JSON.stringify({
        abi: c.abi,
        bytecode: { object: c.bytecode, ...(sources ? { sourceMap: c.sourceMap } : {}) },
        deployedBytecode: { object: c.deployedBytecode, ...(sources ? { sourceMap: c.deployedSourceMap } : {}) },
        storageLayout: c.storageLayout,
        ...debug,
      }),
    );
  }
  if (!sources) return;
  copyFileSync(new URL('../../contracts/Scenarios.sol', import.meta.url), join(dir, 'Scenarios.sol'));
  mkdirSync(join(dir, 'out', 'build-info'), { recursive: true });
  const buildId = 'de300000000000000000000000000001';
  writeFileSync(join(dir, 'out', 'build-info', `${buildId}.json`), JSON.stringify({ id: buildId, source_id_to_path: { 0: 'Scenarios.sol' }, language: 'Solidity' }));
}

/** anvil's first two default accounts (public test keys from its default mnemonic). */
export const DEV = {
  sender: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
  senderKey: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  other: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
  otherKey: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
};

const hex = (n) => `0x${BigInt(n).toString(16)}`;

/** The symbol of the hostile MetaToken: terminal escapes and a bidi override. */
/** An account that holds nothing until the state scenario sends it value and tokens. */
export const FRESH = '0x000000000000000000000000000000000000beef';

export const EVIL_SYMBOL = '\u001b[31mEVIL\u202e';

export function call(contract, functionName, args = []) {
  return encodeFunctionData({ abi: artifacts[contract].abi, functionName, args });
}

export function deployData(contract, args = []) {
  return encodeDeployData({ abi: artifacts[contract].abi, bytecode: artifacts[contract].bytecode, args });
}

/** Send from an unlocked anvil account; returns the hash. A fixed gas limit skips estimation, so reverting transactions are mined too. */
export async function send(rpc, tx) {
  return rpc('eth_sendTransaction', [{ from: DEV.sender, ...tx }]);
}

/**
 * The receipt; anvil can answer eth_sendTransaction a moment before it has mined the block, so wait up to
 * 10 s. Its receipt can also come a moment before eth_getTransactionByHash gives the transaction its block
 * (a busy machine showed it once): both are waited for, so a test reads a mined transaction.
 */
export async function receipt(rpc, hash) {
  for (let waited = 0; waited < 10_000; waited += 50) {
    const r = await rpc('eth_getTransactionReceipt', [hash]);
    if (r !== null && (await rpc('eth_getTransactionByHash', [hash]))?.blockNumber != null) return r;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no receipt for ${hash} after 10 s`);
}

/** Deploy Logic and Showcase; returns their addresses and the creation transaction's hash. */
export async function deploy(rpc) {
  const logicHash = await send(rpc, { data: deployData('Logic') });
  const logic = (await receipt(rpc, logicHash)).contractAddress;
  // A legacy (type 0) contract creation with value.
  const creation = await send(rpc, { type: '0x0', gasPrice: hex(parseGwei('3')), gas: hex(3_000_000), value: hex(10n ** 18n), data: deployData('Showcase', [logic]) });
  const showcase = (await receipt(rpc, creation)).contractAddress;
  return { logic, showcase, creation };
}

/** A type-4 (EIP-7702) transaction: `other` delegates its code to Logic, and the sender calls bump(5) on it. */
export async function sendSetCode(rpc, logic) {
  const chainId = Number(await rpc('eth_chainId'));
  const authority = privateKeyToAccount(DEV.otherKey);
  const sponsor = privateKeyToAccount(DEV.senderKey);
  const authorization = await authority.signAuthorization({
    chainId,
    contractAddress: logic,
    nonce: Number(await rpc('eth_getTransactionCount', [DEV.other, 'pending'])),
  });
  const raw = await sponsor.signTransaction({
    type: 'eip7702',
    chainId,
    nonce: Number(await rpc('eth_getTransactionCount', [DEV.sender, 'pending'])),
    to: DEV.other,
    data: call('Logic', 'bump', [5n]),
    gas: 200_000n,
    maxFeePerGas: parseGwei('20'),
    maxPriorityFeePerGas: parseGwei('1'),
    authorizationList: [authorization],
  });
  return rpc('eth_sendRawTransaction', [raw]);
}

/** Every scenario, mined: name → transaction hash (plus the contract addresses). */
/**
 * Every scenario, mined. `options.skip` leaves named scenarios out: Hardhat's engine (EDR 0.12) answers a
 * call to the account a same-transaction selfdestruct deleted (destroyOld) with "Contract with code hash …
 * does not exist" and mines nothing.
 */
export async function makeScenarios(rpc, options = {}) {
  const skip = new Set(options.skip ?? []);
  // Each one mined before the next is sent: anvil can answer eth_sendTransaction before it mines, and two
  // sent in that moment share a block. Every scenario is then the first of its block, as the tests that
  // re-execute one on its parent block's state (and word what they replayed) take it to be.
  const mined = async (sent) => {
    const hash = await sent;
    await receipt(rpc, hash);
    return hash;
  };
  const alone = (tx) => mined(send(rpc, tx));
  const { logic, showcase, creation } = await deploy(rpc);
  const gas = hex(1_000_000);
  const h = { creation };
  h.showcase = await alone({ to: showcase, value: hex(10), gas: hex(3_000_000), data: call('Showcase', 'run', [3n]) });
  h.legacyTransfer = await alone({ type: '0x0', gasPrice: hex(parseGwei('2')), to: DEV.other, value: hex(1_500_000_000_000_000_000n) });
  h.accessList = await alone({
    type: '0x1',
    gasPrice: hex(parseGwei('2')),
    to: showcase,
    data: call('Showcase', 'recurse', [2n]),
    accessList: [{ address: showcase, storageKeys: [`0x${'0'.repeat(64)}`] }],
  });
  h.reason = await alone({ to: showcase, gas, data: call('Showcase', 'failReason') });
  h.panicIndex = await alone({ to: showcase, gas, data: call('Showcase', 'failIndex', [5n]) });
  h.overflow = await alone({ to: showcase, gas, data: call('Showcase', 'failOverflow', [255]) });
  h.custom = await alone({ to: showcase, gas, data: call('Showcase', 'failCustom') });
  h.deep = await alone({ to: showcase, gas, data: call('Showcase', 'failDeep') });
  h.outOfGas = await alone({ to: showcase, gas: hex(100_000), data: call('Showcase', 'burn') });
  h.invalid = await alone({ to: showcase, gas, data: call('Showcase', 'invalidOp') });
  h.evil = await alone({ to: showcase, gas, data: call('Showcase', 'evil') });
  h.recursion = await alone({ to: showcase, gas: hex(8_000_000), data: call('Showcase', 'recurse', [60n]) });
  h.setCode = await mined(sendSetCode(rpc, logic));
  // ERC-20: a transfer (decoded by the built-in ABIs alone), an approve + transferFrom by another
  // account, and a transfer over the balance (custom error InsufficientBalance).
  h.tokenDeploy = await alone({ data: deployData('Token', [10n ** 24n]) });
  const token = (await receipt(rpc, h.tokenDeploy)).contractAddress;
  h.tokenTransfer = await alone({ to: token, data: call('Token', 'transfer', [DEV.other, 40n * 10n ** 18n]) });
  await alone({ to: token, data: call('Token', 'approve', [showcase, 10n ** 18n]) });
  h.tokenFail = await alone({ to: token, gas, data: call('Token', 'transfer', [DEV.other, 10n ** 25n]) });
  // Plain value to a contract: its receive() runs.
  h.receive = await alone({ to: showcase, value: '0x5' });
  // State changes: Vault behind an EIP-1967 proxy (the proxy's creation writes the standard slots),
  // then one call through it that writes every storage shape, mints two MetaTokens (one with a
  // hostile string symbol and 6 decimals, one with a bytes32 symbol) and passes value on to an account
  // that did not exist before.
  const vaultHash = await alone({ data: deployData('Vault') });
  const vault = (await receipt(rpc, vaultHash)).contractAddress;
  h.proxyCreation = await alone({ data: deployData('Proxy1967', [vault]) });
  const proxy = (await receipt(rpc, h.proxyCreation)).contractAddress;
  const evilToken = (await receipt(rpc, await alone({ data: deployData('MetaToken', [EVIL_SYMBOL, `0x${'0'.repeat(64)}`, 6]) }))).contractAddress;
  const wordToken = (await receipt(rpc, await alone({ data: deployData('MetaToken', ['', stringToHex('MKR', { size: 32 }), 18]) }))).contractAddress;
  h.stateShow = await alone({ to: proxy, value: hex(1000), gas: hex(1_000_000), data: call('Vault', 'fill', [FRESH, 1000n, 42n, evilToken, wordToken]) });
  // A selfdestruct of a contract made in an earlier transaction (the showcase's Child): after Cancun
  // (EIP-6780) it only sends the balance away; the account and its code stay.
  const child = `0x${(await rpc('eth_call', [{ to: showcase, data: call('Showcase', 'lastChild') }, 'latest'])).slice(26)}`;
  if (!skip.has('destroyOld')) h.destroyOld = await alone({ to: child, gas, data: call('Child', 'destroy', [FRESH]) });
  // A token whose symbol() reverts, minting to the sender.
  const mute = (await receipt(rpc, await alone({ data: deployData('MetaToken', ['', `0x${'0'.repeat(64)}`, 0]) }))).contractAddress;
  h.muteMint = await alone({ to: mute, data: call('MetaToken', 'mint', [DEV.sender, 7n]) });
  // Hostile text for the HTML report (an event and a caught revert that try to become markup).
  const hostile = (await receipt(rpc, await alone({ data: deployData('Hostile') }))).contractAddress;
  h.evilHtml = await alone({ to: hostile, gas, data: call('Hostile', 'evilHtml') });
  return { hashes: h, logic, showcase, token, vault, proxy, evilToken, wordToken, mute, child, hostile };
}

/**
 * Run `sendAll` (which sends transactions and returns what it likes) with automine off, then mine
 * everything pending in one block; automine is on again after, also when a send fails.
 */
export async function inOneBlock(rpc, sendAll) {
  await rpc('evm_setAutomine', [false]);
  try {
    const sent = await sendAll();
    await rpc('evm_mine', []);
    return sent;
  } finally {
    await rpc('evm_setAutomine', [true]);
  }
}

/**
 * A crowded block: `earlier` token transfers from DEV.sender, each to its own new holder (an exchange
 * paying out), or with `sameHolder` all to one holder (a bot or relayer topping up one account), then
 * one more to DEV.other, all mined in one block. On the parent block's state the last one's nonce is
 * `earlier` too low: it runs only after the others. Returns its hash and index.
 */
export async function crowdedBlock(rpc, token, earlier = 100, sameHolder = false) {
  const last = await inOneBlock(rpc, async () => {
    for (let i = 0; i < earlier; i++) {
      const holder = `0x${(0xc0de0000 + (sameHolder ? 0xffff : i)).toString(16).padStart(40, '0')}`;
      await send(rpc, { to: token, gas: '0x30000', data: call('Token', 'transfer', [holder, BigInt(i + 1)]) });
    }
    return send(rpc, { to: token, gas: '0x30000', data: call('Token', 'transfer', [DEV.other, 1000n]) });
  });
  return { hash: last, index: Number((await receipt(rpc, last)).transactionIndex) };
}

/**
 * Two transfers from DEV.other in one block: the first leaves it 1 unit of `token`, so the second (of 2
 * units) reverts with InsufficientBalance, and only because of the first. Returns both hashes.
 */
export async function dependentRevert(rpc, token) {
  await receipt(rpc, await send(rpc, { to: token, data: call('Token', 'transfer', [DEV.other, 10n ** 18n]) }));
  const have = BigInt(await rpc('eth_call', [{ to: token, data: call('Token', 'balanceOf', [DEV.other]) }, 'latest']));
  return inOneBlock(rpc, async () => ({
    first: await rpc('eth_sendTransaction', [{ from: DEV.other, to: token, gas: '0x30000', data: call('Token', 'transfer', [DEV.sender, have - 1n]) }]),
    second: await rpc('eth_sendTransaction', [{ from: DEV.other, to: token, gas: '0x30000', data: call('Token', 'transfer', [DEV.sender, 2n]) }]),
  }));
}

const bank = JSON.parse(readFileSync(new URL('../../contracts/out/Bank.json', import.meta.url), 'utf8')).contracts;

/**
 * A Foundry developer's own small project in `dir` (contracts/Bank.sol: MyToken, and Bank with two
 * immutables), laid out as forge writes it: foundry.toml, out/Bank.sol/<Name>.json with the runtime
 * code's immutableReferences and the storage layout.
 */
export function writeBankProject(dir) {
  mkdirSync(join(dir, 'out', 'Bank.sol'), { recursive: true });
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'foundry.toml'), '[profile.default]\nsrc = "src"\nout = "out"\nextra_output = ["storageLayout"]\n');
  for (const [name, c] of Object.entries(bank)) writeFileSync(join(dir, 'out', 'Bank.sol', `${name}.json`), JSON.stringify(c));
}

/** Deploy MyToken (1,000,000 MTK to DEV.sender) and a Bank that keeps it; returns their addresses and the Bank's creation. */
export async function deployBank(rpc) {
  const deployed = async (name, args) => {
    const hash = await send(rpc, { data: encodeDeployData({ abi: bank[name].abi, bytecode: bank[name].bytecode.object, args }) });
    return { hash, address: (await receipt(rpc, hash)).contractAddress };
  };
  const token = (await deployed('MyToken', [10n ** 24n])).address;
  const created = await deployed('Bank', [token]);
  return { token, bank: created.address, bankCreation: created.hash };
}

/** Call data for MyToken or Bank. */
export function bankCall(contract, functionName, args = []) {
  return encodeFunctionData({ abi: bank[contract].abi, functionName, args });
}
