/**
 * Which chain family a transaction belongs to, from what its answers show, and what that changes: the
 * fee rules (an OP Stack chain adds an L1 data fee and burns nothing; Arbitrum counts L1 calldata in
 * gasUsed), the transaction types, the system contracts' names. No flag and no request: the deposit
 * type and fields, the L1 fee fields of an OP Stack receipt, Arbitrum's receipt fields and types, the
 * chain id where the transaction carries one, and (for --state) the fee vaults in the diff.
 */
import { toQuantity } from '../raw/hex.js';
import type { Hex } from '../raw/types.js';
import type { FeeRules, Receipt, Transaction } from './types.js';

export type { FeeRules } from './types.js';

/** Chains a user meets, by id: their names, and the family of the L2s among them. */
const CHAINS: Readonly<Record<number, { readonly name: string; readonly family?: Exclude<FeeRules, 'ethereum'> }>> = {
  1: { name: 'Ethereum' },
  11155111: { name: 'Sepolia' },
  17000: { name: 'Holesky' },
  560048: { name: 'Hoodi' },
  10: { name: 'OP Mainnet', family: 'op-stack' },
  11155420: { name: 'OP Sepolia', family: 'op-stack' },
  8453: { name: 'Base', family: 'op-stack' },
  84532: { name: 'Base Sepolia', family: 'op-stack' },
  130: { name: 'Unichain', family: 'op-stack' },
  1301: { name: 'Unichain Sepolia', family: 'op-stack' },
  7777777: { name: 'Zora', family: 'op-stack' },
  34443: { name: 'Mode', family: 'op-stack' },
  480: { name: 'World Chain', family: 'op-stack' },
  57073: { name: 'Ink', family: 'op-stack' },
  42161: { name: 'Arbitrum One', family: 'arbitrum' },
  42170: { name: 'Arbitrum Nova', family: 'arbitrum' },
  421614: { name: 'Arbitrum Sepolia', family: 'arbitrum' },
  31337: { name: 'local' },
};

export const chainName = (id: number): string | null => CHAINS[id]?.name ?? null;

/** The chain id a transaction carries (legacy transactions before EIP-155 carry none). */
export const chainIdOf = (tx: Transaction | null): number | null => tx?.chainId ?? null;

/** OP Stack's deposit type, and Arbitrum's own types (Nitro's numbering). */
export const L2_TX_TYPES: Readonly<Record<string, { readonly name: string; readonly family: Exclude<FeeRules, 'ethereum'> }>> = {
  '0x7e': { name: 'deposit (OP Stack)', family: 'op-stack' },
  '0x64': { name: 'deposit (Arbitrum)', family: 'arbitrum' },
  '0x65': { name: 'unsigned (Arbitrum)', family: 'arbitrum' },
  '0x66': { name: 'contract (Arbitrum)', family: 'arbitrum' },
  '0x68': { name: 'retry (Arbitrum retryable)', family: 'arbitrum' },
  '0x69': { name: 'submit retryable (Arbitrum)', family: 'arbitrum' },
  '0x6a': { name: 'internal (ArbOS)', family: 'arbitrum' },
  '0x78': { name: 'legacy (Arbitrum Classic)', family: 'arbitrum' },
};

/** A quantity as the key of the tables above ("0x7E" and "0x07e" are 0x7e). */
export const typeKey = (type: string): string => toQuantity(BigInt(type));

/** The transaction's type, from the transaction or (where it is missing) the receipt. */
export const txTypeOf = (tx: Transaction | null, receipt: Receipt | null): Hex | null => tx?.type ?? receipt?.type ?? null;

export const isDeposit = (tx: Transaction | null, receipt: Receipt | null): boolean => {
  const type = txTypeOf(tx, receipt);
  return (type !== null && typeKey(type) === '0x7e') || receipt?.depositNonce !== undefined || tx?.sourceHash !== undefined;
};

/** The family the answers show, else null (an L1, or an L2 that said nothing of itself). */
export function familyOf(tx: Transaction | null, receipt: Receipt | null): Exclude<FeeRules, 'ethereum'> | null {
  if (isDeposit(tx, receipt) || receipt?.l1 !== undefined) return 'op-stack';
  if (receipt?.gasUsedForL1 !== undefined || receipt?.l1BlockNumber !== undefined) return 'arbitrum';
  const type = txTypeOf(tx, receipt);
  const byType = type === null ? undefined : L2_TX_TYPES[typeKey(type)]?.family;
  if (byType !== undefined) return byType;
  const chainId = chainIdOf(tx);
  return chainId === null ? null : (CHAINS[chainId]?.family ?? null);
}

/** OP Stack's predeployed system contracts (contracts-bedrock's Predeploys and Constants). */
export const OP_PREDEPLOYS: Readonly<Record<string, string>> = {
  '0x4200000000000000000000000000000000000000': 'LegacyMessagePasser',
  '0x4200000000000000000000000000000000000001': 'L1MessageSender',
  '0x4200000000000000000000000000000000000002': 'DeployerWhitelist',
  '0x4200000000000000000000000000000000000006': 'WETH',
  '0x4200000000000000000000000000000000000007': 'L2CrossDomainMessenger',
  '0x420000000000000000000000000000000000000f': 'GasPriceOracle',
  '0x4200000000000000000000000000000000000010': 'L2StandardBridge',
  '0x4200000000000000000000000000000000000011': 'SequencerFeeVault',
  '0x4200000000000000000000000000000000000012': 'OptimismMintableERC20Factory',
  '0x4200000000000000000000000000000000000013': 'L1BlockNumber',
  '0x4200000000000000000000000000000000000014': 'L2ERC721Bridge',
  '0x4200000000000000000000000000000000000015': 'L1Block',
  '0x4200000000000000000000000000000000000016': 'L2ToL1MessagePasser',
  '0x4200000000000000000000000000000000000017': 'OptimismMintableERC721Factory',
  '0x4200000000000000000000000000000000000018': 'ProxyAdmin',
  '0x4200000000000000000000000000000000000019': 'BaseFeeVault',
  '0x420000000000000000000000000000000000001a': 'L1FeeVault',
  '0x4200000000000000000000000000000000000020': 'SchemaRegistry',
  '0x4200000000000000000000000000000000000021': 'EAS',
  '0x4200000000000000000000000000000000000022': 'CrossL2Inbox',
  '0x4200000000000000000000000000000000000023': 'L2ToL2CrossDomainMessenger',
  '0x4200000000000000000000000000000000000042': 'GovernanceToken',
  '0xdeaddeaddeaddeaddeaddeaddeaddeaddead0000': 'LegacyERC20ETH',
  '0xdeaddeaddeaddeaddeaddeaddeaddeaddead0001': 'L1 attributes depositor',
};

export const BASE_FEE_VAULT = '0x4200000000000000000000000000000000000019';
export const SEQUENCER_FEE_VAULT = '0x4200000000000000000000000000000000000011';
export const L1_FEE_VAULT = '0x420000000000000000000000000000000000001a';

/** Arbitrum's precompiles and NodeInterface (Nitro's addresses). */
export const ARBITRUM_PRECOMPILES: Readonly<Record<string, string>> = {
  '0x0000000000000000000000000000000000000064': 'ArbSys',
  '0x0000000000000000000000000000000000000065': 'ArbInfo',
  '0x0000000000000000000000000000000000000066': 'ArbAddressTable',
  '0x0000000000000000000000000000000000000067': 'ArbBLS',
  '0x0000000000000000000000000000000000000068': 'ArbFunctionTable',
  '0x0000000000000000000000000000000000000069': 'ArbosTest',
  '0x000000000000000000000000000000000000006b': 'ArbOwnerPublic',
  '0x000000000000000000000000000000000000006c': 'ArbGasInfo',
  '0x000000000000000000000000000000000000006d': 'ArbAggregator',
  '0x000000000000000000000000000000000000006e': 'ArbRetryableTx',
  '0x000000000000000000000000000000000000006f': 'ArbStatistics',
  '0x0000000000000000000000000000000000000070': 'ArbOwner',
  '0x0000000000000000000000000000000000000071': 'ArbWasm',
  '0x0000000000000000000000000000000000000072': 'ArbWasmCache',
  '0x00000000000000000000000000000000000000c8': 'NodeInterface',
  '0x00000000000000000000000000000000000000c9': 'NodeInterfaceDebug',
};

/** The system contracts' names on a chain of this family (none on Ethereum). */
export const systemLabels = (family: FeeRules | null): Readonly<Record<string, string>> =>
  family === 'op-stack' ? OP_PREDEPLOYS : family === 'arbitrum' ? ARBITRUM_PRECOMPILES : {};

/** OP Stack: an L1 contract's address as it appears on L2 (aliased), undone: the L1 address, if the sender was a contract. */
export function unaliasL1(address: Hex): Hex {
  const offset = 0x1111000000000000000000000000000000001111n;
  const n = (BigInt(address) - offset + (1n << 160n)) % (1n << 160n);
  return `0x${n.toString(16).padStart(40, '0')}`;
}
