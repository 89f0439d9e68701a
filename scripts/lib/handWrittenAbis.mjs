// Signatures no published package ships, written here by hand with their parameter names, for
// contracts real mainnet traffic calls often (aggregator routers, lending managers, rollups, PSMs).
// Each entry names the selector its signature must hash to (checked by the build and by
// test/unit/handWrittenAbis.test.ts) and the public source it was read from; only the names and types
// were taken from there.
//
// Chosen where they matter: every selector below was unnamed by all shipped sources on the recorded
// mainnet traces (test/fixtures/blocks and test/fixtures/real), or belongs to the same contract as one
// that was (a router's other entry point, a pool's other reads, XEN's other minting calls).

/**
 * `contract` is the contract's own name (the protocol is in the comment above each group); `selector`
 * is a function's selector, or an event's topic0.
 * @type {ReadonlyArray<{ contract: string, source: string, selector: string, signature: string }>}
 */
export const HAND_WRITTEN = [
  // 1inch Aggregation Router v6 (0x1111111254EEB25477B68fb85Ed929f73A960582)
  {
    contract: 'AggregationRouterV6',
    source: 'github.com/1inch/1inch-v6-contract (contracts/routers/GenericRouter.sol, UnoswapRouter.sol)',
    selector: '0x07ed2379',
    signature: 'function swap(address executor, (address srcToken, address dstToken, address srcReceiver, address dstReceiver, uint256 amount, uint256 minReturnAmount, uint256 flags) desc, bytes data) payable returns (uint256 returnAmount, uint256 spentAmount)',
  },
  {
    contract: 'AggregationRouterV6',
    source: 'github.com/1inch/1inch-v6-contract (contracts/routers/UnoswapRouter.sol)',
    selector: '0x83800a8e',
    signature: 'function unoswap(uint256 token, uint256 amount, uint256 minReturn, uint256 dex) returns (uint256 returnAmount)',
  },
  // 0x: AllowanceHolder (0x0000000000001fF3684f28c67538d4D072C22734) and Settler
  {
    contract: 'AllowanceHolder',
    source: 'github.com/0xProject/0x-settler (src/allowanceholder/IAllowanceHolder.sol)',
    selector: '0x2213bc0b',
    signature: 'function exec(address operator, address token, uint256 amount, address target, bytes data) payable returns (bytes result)',
  },
  {
    contract: 'Settler',
    source: 'github.com/0xProject/0x-settler (src/interfaces/ISettlerTakerSubmitted.sol)',
    selector: '0x1fff991f',
    signature: 'function execute((address recipient, address buyToken, uint256 minAmountOut) slippage, bytes[] actions, bytes32 zidAndAffiliate) payable returns (bool)',
  },
  // KyberSwap MetaAggregationRouterV2 (0x6131B5fae19EA4f9D964eAc0408E4408b66337b5)
  {
    contract: 'MetaAggregationRouterV2',
    source: 'github.com/KyberNetwork/ks-aggregator-sc (contracts/MetaAggregationRouterV2.sol)',
    selector: '0xe21fd0e9',
    signature: 'function swap((address callTarget, address approveTarget, bytes targetData, (address srcToken, address dstToken, address[] srcReceivers, uint256[] srcAmounts, address[] feeReceivers, uint256[] feeAmounts, address dstReceiver, uint256 amount, uint256 minReturnAmount, uint256 flags, bytes permit) desc, bytes clientData) execution) payable returns (uint256 returnAmount, uint256 gasUsed)',
  },
  {
    contract: 'MetaAggregationRouterV2',
    source: 'github.com/KyberNetwork/ks-aggregator-sc (contracts/MetaAggregationRouterV2.sol)',
    selector: '0x8af033fb',
    signature: 'function swapSimpleMode(address caller, (address srcToken, address dstToken, address[] srcReceivers, uint256[] srcAmounts, address[] feeReceivers, uint256[] feeAmounts, address dstReceiver, uint256 amount, uint256 minReturnAmount, uint256 flags, bytes permit) desc, bytes executorData, bytes clientData) returns (uint256 returnAmount, uint256 gasUsed)',
  },
  // OKX DEX router, its token approval contract and the DODO-style adapters it routes through
  {
    contract: 'DexRouter',
    source: 'github.com/okx/WEB3-DEX-OPENSOURCE (contracts/8/DexRouter.sol)',
    selector: '0xf2c42696',
    signature: 'function dagSwapByOrderId(uint256 orderId, (uint256 fromToken, address toToken, uint256 fromTokenAmount, uint256 minReturnAmount, uint256 deadLine) baseRequest, (address[] mixAdapters, address[] assetTo, uint256[] rawData, bytes[] extraData, uint256 fromToken)[] paths) payable returns (uint256 returnAmount)',
  },
  {
    contract: 'DODOApprove',
    source: 'github.com/DODOEX/contractV2 (contracts/SmartRoute/DODOApprove.sol)',
    selector: '0x0a5ea466',
    signature: 'function claimTokens(address token, address who, address dest, uint256 amount)',
  },
  {
    contract: 'DODOAdapter',
    source: 'github.com/DODOEX/contractV2 (contracts/SmartRoute/intf/IDODOAdapter.sol)',
    selector: '0x30e6ae31',
    signature: 'function sellBase(address to, address pool, bytes data)',
  },
  {
    contract: 'DODOAdapter',
    source: 'github.com/DODOEX/contractV2 (contracts/SmartRoute/intf/IDODOAdapter.sol)',
    selector: '0x6f7929f2',
    signature: 'function sellQuote(address to, address pool, bytes data)',
  },
  // Maple Finance v2 loan managers (fixed-term and open-term)
  {
    contract: 'LoanManager',
    source: 'github.com/maple-labs/fixed-term-loan-manager (contracts/interfaces/ILoanManager.sol)',
    selector: '0xf6de0bd2',
    signature: 'function assetsUnderManagement() view returns (uint256 assetsUnderManagement)',
  },
  {
    contract: 'LoanManager',
    source: 'github.com/maple-labs/fixed-term-loan-manager (contracts/interfaces/ILoanManager.sol)',
    selector: '0x67e2ba23',
    signature: 'function unrealizedLosses() view returns (uint256 unrealizedLosses)',
  },
  // Maker (Sky) LitePSM and its USDS wrapper
  {
    contract: 'DssLitePsm',
    source: 'github.com/makerdao/dss-lite-psm (src/DssLitePsm.sol)',
    selector: '0x568d4b6f',
    signature: 'function tin() view returns (uint256)',
  },
  {
    contract: 'DssLitePsm',
    source: 'github.com/makerdao/dss-lite-psm (src/DssLitePsm.sol)',
    selector: '0xfae036d5',
    signature: 'function tout() view returns (uint256)',
  },
  {
    contract: 'DssLitePsm',
    source: 'github.com/makerdao/dss-lite-psm (src/DssLitePsm.sol)',
    selector: '0x4010f777',
    signature: 'function to18ConversionFactor() view returns (uint256)',
  },
  // Taiko's L1 rollup contracts
  {
    contract: 'TaikoL1',
    source: 'github.com/taikoxyz/taiko-mono (packages/protocol/contracts/L1/TaikoL1.sol)',
    selector: '0xef16e845',
    signature: 'function proposeBlock(bytes params, bytes txList) payable',
  },
  {
    contract: 'TaikoL1',
    source: 'github.com/taikoxyz/taiko-mono (packages/protocol/contracts/L1/TaikoL1.sol)',
    selector: '0x10d008bd',
    signature: 'function proveBlock(uint64 blockId, bytes input)',
  },
  {
    contract: 'TaikoL1',
    source: 'github.com/taikoxyz/taiko-mono (packages/protocol/contracts/L1/libs/LibVerifying.sol)',
    selector: '0xdecbd2c61cbda254917d6fd4c980a470701e8f9f1b744f6ad163ca70ca5db289',
    signature: 'event BlockVerified(uint256 indexed blockId, address indexed prover, bytes32 blockHash, bytes32 stateRoot, uint16 tier)',
  },
  {
    contract: 'AddressResolver',
    source: 'github.com/taikoxyz/taiko-mono (packages/protocol/contracts/common/IAddressResolver.sol)',
    selector: '0xa86f9d9e',
    signature: 'function resolve(bytes32 name, bool allowZeroAddress) view returns (address)',
  },
  {
    contract: 'AddressResolver',
    source: 'github.com/taikoxyz/taiko-mono (packages/protocol/contracts/common/IAddressResolver.sol)',
    selector: '0x3eb6b8cf',
    signature: 'function resolve(uint64 chainId, bytes32 name, bool allowZeroAddress) view returns (address)',
  },
  // Saddle-style StableSwap pools (Saddle and its forks)
  {
    contract: 'SaddleSwap',
    source: 'github.com/saddle-finance/saddle-contract (contracts/Swap.sol)',
    selector: '0x82b86600',
    signature: 'function getToken(uint8 index) view returns (address)',
  },
  {
    contract: 'SaddleSwap',
    source: 'github.com/saddle-finance/saddle-contract (contracts/Swap.sol)',
    selector: '0x91ceb3eb',
    signature: 'function getTokenBalance(uint8 index) view returns (uint256)',
  },
  {
    contract: 'SaddleSwap',
    source: 'github.com/saddle-finance/saddle-contract (contracts/Swap.sol)',
    selector: '0xa95b089f',
    signature: 'function calculateSwap(uint8 tokenIndexFrom, uint8 tokenIndexTo, uint256 dx) view returns (uint256)',
  },
  {
    contract: 'SaddleSwap',
    source: 'github.com/saddle-finance/saddle-contract (contracts/Swap.sol)',
    selector: '0x91695586',
    signature: 'function swap(uint8 tokenIndexFrom, uint8 tokenIndexTo, uint256 dx, uint256 minDy, uint256 deadline) returns (uint256)',
  },
  // XEN Crypto, its XENFT (XENTorrent) and the minting proxies XENTorrent deploys (2022–): mass minting
  // that fills blocks with the same few calls.
  {
    contract: 'XENCrypto',
    source: 'github.com/FairCrypto/XEN-crypto (contracts/XENCrypto.sol)',
    selector: '0x9ff054df',
    signature: 'function claimRank(uint256 term)',
  },
  {
    contract: 'XENCrypto',
    source: 'github.com/FairCrypto/XEN-crypto (contracts/XENCrypto.sol)',
    selector: '0x52c7f8dc',
    signature: 'function claimMintReward()',
  },
  {
    contract: 'XENCrypto',
    source: 'github.com/FairCrypto/XEN-crypto (contracts/XENCrypto.sol)',
    selector: '0x1c560305',
    signature: 'function claimMintRewardAndShare(address other, uint256 pct)',
  },
  {
    contract: 'XENCrypto',
    source: 'github.com/FairCrypto/XEN-crypto (contracts/XENCrypto.sol)',
    selector: '0x5bccb4c4',
    signature: 'function claimMintRewardAndStake(uint256 pct, uint256 term)',
  },
  {
    contract: 'XENCrypto',
    source: 'github.com/FairCrypto/XEN-crypto (contracts/XENCrypto.sol)',
    selector: '0x7b0472f0',
    signature: 'function stake(uint256 amount, uint256 term)',
  },
  {
    contract: 'XENTorrent',
    source: 'github.com/FairCrypto/XENFTs (contracts/XENFT.sol)',
    selector: '0xecef9201',
    signature: 'function bulkClaimRank(uint256 count, uint256 term) returns (uint256 tokenId)',
  },
  {
    contract: 'XENTorrent',
    source: 'github.com/FairCrypto/XENFTs (contracts/XENFT.sol)',
    selector: '0xf5878b9b',
    signature: 'function bulkClaimMintReward(uint256 tokenId, address to)',
  },
  {
    contract: 'XENTorrentMinion',
    source: 'github.com/FairCrypto/XENFTs (contracts/XENFT.sol: the calls each minting proxy is made to answer)',
    selector: '0x01bb4116',
    signature: 'function callClaimRank(uint256 term)',
  },
  {
    contract: 'XENTorrentMinion',
    source: 'github.com/FairCrypto/XENFTs (contracts/XENFT.sol: the calls each minting proxy is made to answer)',
    selector: '0xdf0030ef',
    signature: 'function callClaimMintReward(address to)',
  },
  {
    contract: 'XENTorrentMinion',
    source: 'github.com/FairCrypto/XENFTs (contracts/XENFT.sol: the calls each minting proxy is made to answer)',
    selector: '0x928dd2a7',
    signature: 'function powerDown()',
  },
];
