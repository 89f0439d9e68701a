// SPDX-License-Identifier: MIT
// A searcher's contract for txray's block tests: it trades straight on Uniswap v2 pairs, several hops in
// one transaction, as the bots behind sandwiches and arbitrage cycles do (no router in between, so the
// router is never what such a block's trades have in common).
pragma solidity ^0.8.28;

interface IUniswapV2PairLike {
    function getReserves() external view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast);
    function token0() external view returns (address);
    function swap(uint256 amount0Out, uint256 amount1Out, address to, bytes calldata data) external;
}

interface IERC20Like {
    function transferFrom(address from, address to, uint256 amount) external returns (bool);
}

contract Hopper {
    error BadPath(uint256 pairs, uint256 tokens);
    error TooLittle(uint256 amountOut, uint256 minOut);

    /// Pulls `amountIn` of tokens[0] from the caller into pairs[0], then swaps pair by pair (pairs[i]
    /// trades tokens[i] for tokens[i + 1]), each pair paying the next and the last paying the caller.
    /// Reverts unless at least `minOut` of the last token arrives: an arbitrage cycle passes its input
    /// plus one, so an unprofitable cycle never lands. Ether sent along goes to the block's fee
    /// recipient, as searchers pay a builder for their place in the block.
    function hop(address[] calldata pairs, address[] calldata tokens, uint256 amountIn, uint256 minOut)
        external
        payable
        returns (uint256 amountOut)
    {
        if (pairs.length == 0 || tokens.length != pairs.length + 1) revert BadPath(pairs.length, tokens.length);
        require(IERC20Like(tokens[0]).transferFrom(msg.sender, pairs[0], amountIn), "Hopper: transferFrom failed");
        amountOut = amountIn;
        for (uint256 i = 0; i < pairs.length; i++) {
            IUniswapV2PairLike pair = IUniswapV2PairLike(pairs[i]);
            (uint256 reserve0, uint256 reserve1,) = pair.getReserves();
            bool zeroIn = pair.token0() == tokens[i];
            (uint256 reserveIn, uint256 reserveOut) = zeroIn ? (reserve0, reserve1) : (reserve1, reserve0);
            // UniswapV2Library.getAmountOut: the pair keeps 0.3% of the input.
            uint256 inWithFee = amountOut * 997;
            amountOut = (inWithFee * reserveOut) / (reserveIn * 1000 + inWithFee);
            address to = i + 1 < pairs.length ? pairs[i + 1] : msg.sender;
            (uint256 out0, uint256 out1) = zeroIn ? (uint256(0), amountOut) : (amountOut, uint256(0));
            pair.swap(out0, out1, to, "");
        }
        if (amountOut < minOut) revert TooLittle(amountOut, minOut);
        if (msg.value > 0) block.coinbase.transfer(msg.value);
    }
}
