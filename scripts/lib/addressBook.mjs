// The address book: names of mainnet contracts and tokens from the address lists a published package
// keeps (StudyDeFi's money-legos, MIT: the 2018–2020 generation's contracts and tokens, with symbols and
// decimals where it gives them). Run by the build into dist/sigdb/addresses.json, rows of
// [address, name, symbol | null, decimals | null]: txray labels these addresses on mainnet (and
// local chains, which may fork it) and takes a token's symbol and decimals from here before asking.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** How each protocol of the package is named in front of its contracts. */
const PROTOCOLS = {
  aave: 'Aave v1', balancer: 'Balancer v1', compound: 'Compound', curvefi: 'Curve', dappsys: 'DSProxy', dydx: 'dYdX',
  idle: 'Idle', kyber: 'Kyber', maker: 'Maker', mstable: 'mStable', onesplit: '1inch OneSplit', synthetix: 'Synthetix',
  uma: 'UMA', uniswap: 'Uniswap v1', uniswapV2: 'Uniswap v2',
};

const capital = (s) => `${s[0].toUpperCase()}${s.slice(1)}`;
/** A token of the package: an ERC-20 entry, or a protocol's token named by its symbol (aDAI, cUSDC, sETH, mUSD). */
const TOKEN_KEY = /^(a|c|s|i|m)[A-Z0-9]{2,}$/;

export function extractAddressBook() {
  const { legos } = require('@studydefi/money-legos');
  const meta = require('@studydefi/money-legos/package.json');
  const rows = new Map();
  const put = (address, name, symbol, decimals) => {
    const a = address.toLowerCase();
    if (!/^0x[0-9a-f]{40}$/.test(a) || rows.has(a) || a === '0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee') return; // the "ETH" placeholder is no contract
    rows.set(a, [a, name, symbol ?? null, typeof decimals === 'number' ? decimals : null]);
  };
  // Tokens first: where an address is both (Synthetix's SNX), the token's symbol is its name.
  for (const token of Object.values(legos.erc20)) if (typeof token?.address === 'string') put(token.address, token.symbol, token.symbol, token.decimals);
  const walk = (node, path) => {
    if (node === null || typeof node !== 'object') return;
    if (typeof node.address === 'string' && path.length > 0 && path[0] !== 'erc20') {
      const [proto, ...rest] = path;
      const key = rest.at(-1) ?? proto;
      const isToken = typeof node.decimals === 'number' || typeof node.symbol === 'string' || TOKEN_KEY.test(key);
      // Curve pools and Idle's tokens are named by their path (cDai_cUsdc curve, maxYield dai).
      const curve = { curve: 'pool', poolToken: 'LP token', zap: 'zap' };
      const words = proto === 'curvefi' && rest.length === 2 ? [rest[0], curve[rest[1]] ?? rest[1]] : rest.map(capital);
      const name = isToken ? (node.symbol || key) : `${PROTOCOLS[proto] ?? capital(proto)}${words.length === 0 ? '' : ` ${words.join(' ')}`}`;
      put(node.address, name, isToken ? (node.symbol || key) : null, node.decimals);
    }
    for (const [k, v] of Object.entries(node)) if (k !== 'abi') walk(v, [...path, k]);
  };
  walk(legos, []);
  return { rows: [...rows.values()].sort((x, y) => (x[0] < y[0] ? -1 : 1)), source: `${meta.name}@${meta.version} (${meta.license})` };
}
