// SPDX-License-Identifier: MIT
// A small Foundry-style project of the kind a developer points txray at: an ERC-20 with custom errors,
// and a Bank that keeps its token and owner as immutables (whose runtime code therefore differs from
// the artifact's where they are spliced in) and a mapping of structs (a storage layout to name).
pragma solidity ^0.8.28;

contract MyToken {
    string public constant name = "My Token";
    string public constant symbol = "MTK";
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    error InsufficientBalance(address who, uint256 have, uint256 want);
    error InsufficientAllowance(address spender, uint256 have, uint256 want);

    constructor(uint256 supply) {
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        _move(msg.sender, to, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed < amount) revert InsufficientAllowance(msg.sender, allowed, amount);
        allowance[from][msg.sender] = allowed - amount;
        _move(from, to, amount);
        return true;
    }

    function _move(address from, address to, uint256 amount) private {
        uint256 have = balanceOf[from];
        if (have < amount) revert InsufficientBalance(from, have, amount);
        balanceOf[from] = have - amount;
        balanceOf[to] += amount;
        emit Transfer(from, to, amount);
    }
}

contract Bank {
    struct Account {
        uint256 deposited;
        uint64 since;
    }

    MyToken public immutable token;
    address public immutable owner;
    mapping(address => Account) public accounts;

    event Deposited(address indexed who, uint256 amount);

    error NothingToWithdraw(address who);

    constructor(MyToken token_) {
        token = token_;
        owner = msg.sender;
    }

    function deposit(uint256 amount) external {
        require(amount > 0, "nothing to deposit");
        token.transferFrom(msg.sender, address(this), amount);
        accounts[msg.sender].deposited += amount;
        accounts[msg.sender].since = uint64(block.timestamp);
        emit Deposited(msg.sender, amount);
    }

    function withdraw(uint256 amount) external {
        Account storage a = accounts[msg.sender];
        if (a.deposited < amount || amount == 0) revert NothingToWithdraw(msg.sender);
        a.deposited -= amount;
        token.transfer(msg.sender, amount);
    }
}
