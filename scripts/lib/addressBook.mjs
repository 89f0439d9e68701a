// The address book: names of contracts and tokens from the address lists published packages keep, by
// chain: StudyDeFi's money-legos (MIT; mainnet, the 2018–2020 generation's contracts and tokens), Uniswap
// Labs' default token list (GPL-3.0-or-later; tokens on mainnet and the L2s, with symbols and decimals)
// Aave's address book (MIT; every v2 and v3 market's contracts and tokens, by chain) and Safe's
// deployments (MIT; every Safe singleton, factory and library, on the chains the list covers), the L2s'
// bridges from viem's chain definitions (MIT) and @arbitrum/sdk (Apache-2.0), and the Simple7702Account
// deployments viem's account-abstraction module names. Run by the
// build into dist/sigdb/addresses.json, rows of [chain id, address, name, symbol | null, decimals | null,
// key | null]; the key says which protocol's contract it is, from the source's own structure (Aave's POOL,
// viem's l1StandardBridge, the Lido token), for the action stage to trust that protocol's events by:
// txray labels these addresses on their chain (mainnet's also where a transaction names none, and on
// local chains, which may fork it) and takes a token's symbol and decimals from here before asking.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { packageRoot } from './packageRoot.mjs';

const require = createRequire(import.meta.url);

/** How each protocol of the package is named in front of its contracts. */
const PROTOCOLS = {
  aave: 'Aave v1', balancer: 'Balancer v1', compound: 'Compound', curvefi: 'Curve', dappsys: 'DSProxy', dydx: 'dYdX',
  idle: 'Idle', kyber: 'Kyber', maker: 'Maker', mstable: 'mStable', onesplit: '1inch OneSplit', synthetix: 'Synthetix',
  uma: 'UMA', uniswap: 'Uniswap v1', uniswapV2: 'Uniswap v2',
};

const packageJson = (name) => JSON.parse(readFileSync(join(packageRoot(name), 'package.json'), 'utf8'));

const capital = (s) => `${s[0].toUpperCase()}${s.slice(1)}`;
/** A token of the package: an ERC-20 entry, or a protocol's token named by its symbol (aDAI, cUSDC, sETH, mUSD). */
const TOKEN_KEY = /^(a|c|s|i|m)[A-Z0-9]{2,}$/;

export function extractAddressBook() {
  const rows = new Map();
  const put = (chainId, address, name, symbol, decimals, key = null) => {
    const a = address.toLowerCase();
    if (!Number.isSafeInteger(chainId) || !/^0x[0-9a-f]{40}$/.test(a) || rows.has(`${chainId}:${a}`) || a === '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee') return; // the "ETH" placeholder is no contract
    if (typeof name !== 'string' || name.trim() === '' || name.length > 100) return;
    rows.set(`${chainId}:${a}`, [chainId, a, name.trim(), symbol ?? null, Number.isSafeInteger(decimals) && decimals >= 0 && decimals <= 255 ? decimals : null, key]);
  };
  const sources = [];

  // Tokens first: where an address is both (Synthetix's SNX), the token's symbol is its name.
  const list = require('@uniswap/default-token-list');
  const listMeta = require('@uniswap/default-token-list/package.json');
  // Lido's stETH on mainnet is its staking contract: it emits Submitted.
  for (const t of list.tokens) if (typeof t.symbol === 'string' && /^[\x21-\x7e]{1,20}$/.test(t.symbol)) put(t.chainId, t.address, t.symbol, t.symbol, t.decimals, t.chainId === 1 && t.symbol === 'stETH' ? 'lido' : null);
  sources.push(`${listMeta.name}@${listMeta.version} (${listMeta.license})`);

  const { legos } = require('@studydefi/money-legos');
  const legosMeta = require('@studydefi/money-legos/package.json');
  for (const token of Object.values(legos.erc20)) if (typeof token?.address === 'string') put(1, token.address, token.symbol, token.symbol, token.decimals);
  const walk = (node, path) => {
    if (node === null || typeof node !== 'object') return;
    if (typeof node.address === 'string' && path.length > 0 && path[0] !== 'erc20') {
      const [proto, ...rest] = path;
      const key = rest.at(-1) ?? proto;
      const isToken = typeof node.decimals === 'number' || typeof node.symbol === 'string' || TOKEN_KEY.test(key);
      // Curve pools and Idle's tokens are named by their path (cDai_cUsdc pool, maxYield dai).
      const curve = { curve: 'pool', poolToken: 'LP token', zap: 'zap' };
      const words = proto === 'curvefi' && rest.length === 2 ? [rest[0], curve[rest[1]] ?? rest[1]] : rest.map(capital);
      const name = isToken ? (node.symbol || key) : `${PROTOCOLS[proto] ?? capital(proto)}${words.length === 0 ? '' : ` ${words.join(' ')}`}`;
      put(1, node.address, name, isToken ? (node.symbol || key) : null, node.decimals);
    }
    for (const [k, v] of Object.entries(node)) if (k !== 'abi') walk(v, [...path, k]);
  };
  walk(legos, []);
  sources.push(`${legosMeta.name}@${legosMeta.version} (${legosMeta.license})`);

  // Aave's address book (BGD Labs, MIT): every v2 and v3 market's contracts by the names Aave gives them
  // (POOL → "Aave v3 Pool"), and its aTokens and debt tokens, on each market's chain.
  const aave = require('@bgd-labs/aave-address-book');
  const aaveMeta = packageJson('@bgd-labs/aave-address-book');
  const pascal = (constant) => constant.toLowerCase().split('_').map(capital).join('');
  for (const [market, book] of Object.entries(aave)) {
    const m = /^Aave(V2|V3)([A-Za-z0-9]*)$/.exec(market);
    if (m === null || typeof book !== 'object' || book === null || !Number.isSafeInteger(book.CHAIN_ID)) continue;
    // The market by its version and what sets it apart on its chain (Lido, EtherFi, AMM…), not the chain's name.
    const variant = m[2].replace(/^(Ethereum|Arbitrum|Avalanche|Base|BNB|Fuji|Polygon|Optimism|Gnosis|Metis|Scroll|ZkSync|Linea|Sonic|Celo|Mantle|Soneium|Ink|Plasma|Sepolia|ArbitrumSepolia|BaseSepolia|OptimismSepolia|ScrollSepolia|Harmony|Fantom|FantomTestnet|Mumbai|Goerli)/, '');
    const prefix = `Aave ${m[1].toLowerCase()}${variant && !/Sepolia|Testnet|Fuji|Mumbai|Goerli/.test(m[2]) ? ` ${variant}` : ''}`;
    for (const [constant, value] of Object.entries(book)) {
      if (typeof value === 'string' && /^0x[0-9a-fA-F]{40}$/.test(value) && !/^0x0{40}$/.test(value)) put(book.CHAIN_ID, value, `${prefix} ${pascal(constant)}`, null, null, constant === 'POOL' ? `aave-${m[1].toLowerCase()}-pool` : null);
    }
    for (const [symbol, asset] of Object.entries(book.ASSETS ?? {})) {
      if (typeof asset !== 'object' || asset === null) continue;
      for (const [field, kind] of [['A_TOKEN', 'a'], ['V_TOKEN', 'variableDebt'], ['S_TOKEN', 'stableDebt']]) {
        if (typeof asset[field] === 'string') put(book.CHAIN_ID, asset[field], `${prefix} ${kind}${symbol}`, null, null);
      }
    }
  }
  sources.push(`${aaveMeta.name}@${aaveMeta.version} (${aaveMeta.license})`);

  // Safe: every released deployment, on the chains the token list covers (Safe lists hundreds of
  // networks; those are the ones users meet), canonical and EIP-155 addresses alike.
  const chains = new Set(list.tokens.map((t) => t.chainId));
  const safeRoot = packageRoot('@safe-global/safe-deployments');
  const safeMeta = require('@safe-global/safe-deployments/package.json');
  const assets = join(safeRoot, 'dist', 'assets');
  for (const version of readdirSync(assets).sort().reverse()) {
    for (const file of readdirSync(join(assets, version)).sort()) {
      const d = JSON.parse(readFileSync(join(assets, version, file), 'utf8'));
      if (d.released !== true || typeof d.contractName !== 'string') continue;
      const addressOf = (type) => d.deployments?.[type]?.address ?? d.defaultAddress;
      for (const [chain, types] of Object.entries(d.networkAddresses ?? {})) {
        if (!chains.has(Number(chain))) continue;
        for (const type of Array.isArray(types) ? types : [types]) {
          const address = typeof type === 'string' && /^0x/.test(type) ? type : addressOf(type);
          if (typeof address === 'string') put(Number(chain), address, `Safe ${d.contractName} ${d.version}`, null, null);
        }
      }
    }
  }
  sources.push(`${safeMeta.name}@${safeMeta.version} (${safeMeta.license})`);

  // The bridges to L2s, on the chain they bridge from: each OP Stack chain's L1StandardBridge and
  // OptimismPortal as viem's chain definitions list them (MIT), Arbitrum's Inbox and gateway router from
  // @arbitrum/sdk (Apache-2.0). The action stage names a deposit by them ("Bridged 4 ETH to Base").
  const viemMeta = require('viem/package.json');
  for (const chain of Object.values(require('viem/chains'))) {
    const contracts = chain?.contracts;
    if (contracts === undefined || typeof chain.name !== 'string' || chain.testnet === true) continue;
    for (const [key, label] of [['l1StandardBridge', 'L1StandardBridge'], ['portal', 'OptimismPortal']]) {
      for (const [from, entry] of Object.entries(contracts[key] ?? {})) if (typeof entry?.address === 'string') put(Number(from), entry.address, `${chain.name} ${label}`, null, null, key === 'l1StandardBridge' ? `bridge:${chain.name}` : null);
    }
  }
  // eth-infinitism's Simple7702Account (the EIP-7702 delegate of @account-abstraction/contracts 0.8, which
  // publishes no deployments): the CREATE2 deployments viem's toSimple7702SmartAccount uses by default, for
  // EntryPoint v0.8 and v0.9. A deterministic deployment has the same address and code on every chain it is
  // on, so it is named on every chain the book covers.
  const simple7702 = readFileSync(join(packageRoot('viem'), 'account-abstraction', 'accounts', 'implementations', 'toSimple7702SmartAccount.ts'), 'utf8');
  const implementations = /entryPoint === '0\.9'\)\s*return '(0x[0-9a-fA-F]{40})'\s*return '(0x[0-9a-fA-F]{40})'/.exec(simple7702);
  if (implementations === null) throw new Error("viem's toSimple7702SmartAccount no longer names its default implementations where the address book reads them");
  for (const chainId of new Set([...rows.values()].map((r) => r[0]))) {
    put(chainId, implementations[2], 'Simple7702Account', null, null);
    put(chainId, implementations[1], 'Simple7702Account (EntryPoint v0.9)', null, null);
  }
  sources.push(`${viemMeta.name}@${viemMeta.version} (${viemMeta.license})`);
  const arbitrumMeta = require('@arbitrum/sdk/package.json');
  for (const n of require('@arbitrum/sdk/dist/lib/dataEntities/networks.js').getArbitrumNetworks()) {
    if (n.isTestnet === true) continue;
    put(n.parentChainId, n.ethBridge.inbox, `${n.name} Inbox`, null, null, `bridge:${n.name}`);
    if (n.tokenBridge?.parentGatewayRouter) put(n.parentChainId, n.tokenBridge.parentGatewayRouter, `${n.name} L1GatewayRouter`, null, null, `bridge:${n.name}`);
  }
  sources.push(`${arbitrumMeta.name}@${arbitrumMeta.version} (${arbitrumMeta.license})`);

  const order = (x, y) => x[0] - y[0] || (x[1] < y[1] ? -1 : 1);
  return { rows: [...rows.values()].sort(order), sources };
}
