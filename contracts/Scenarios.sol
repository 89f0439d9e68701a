// SPDX-License-Identifier: MIT
// Test and demo scenarios for txray: every kind of call, failure and event a trace can show.
pragma solidity ^0.8.28;

/// Created inside transactions; pinged, peeked at, asked to fail and to self-destruct.
contract Child {
    event Pinged(address indexed from, uint256 value, string note);

    constructor() payable {}

    function ping(uint256 x) external payable returns (uint256) {
        emit Pinged(msg.sender, x, "ping");
        return x + 1;
    }

    function peek() external view returns (uint256) {
        return address(this).balance;
    }

    function fail(string calldata why) external pure {
        revert(why);
    }

    function destroy(address payable to) external {
        selfdestruct(to);
    }
}

/// Code run through delegatecall (its storage layout matches Showcase's first slot) and through
/// an EIP-7702 delegation (set-code transactions).
contract Logic {
    uint256 public counter;

    event Counted(uint256 counter);

    function bump(uint256 by) external payable returns (uint256) {
        counter += by;
        emit Counted(counter);
        return counter;
    }
}

contract Showcase {
    uint256 public counter;
    address public logic;
    Child public lastChild;

    event Step(uint256 indexed step, string label);
    event Note(string text);

    error Nope(address who, uint256 have, uint256 want);

    constructor(address logic_) payable {
        logic = logic_;
    }

    receive() external payable {}

    /// The showcase: nested calls, value, staticcall, delegatecall, create, create2, a revert caught
    /// inside, a selfdestruct, events and a recursion `depth` calls deep.
    function run(uint256 depth) external payable returns (uint256) {
        Child child = new Child{value: 1 wei}();
        lastChild = child;
        child.ping{value: 2 wei}(7);
        child.peek();
        (bool ok,) = logic.delegatecall(abi.encodeCall(Logic.bump, (3)));
        require(ok, "delegatecall failed");
        Child twin = new Child{salt: bytes32(uint256(42))}();
        try child.fail("caught it") {} catch Error(string memory) {
            emit Step(1, "caught");
        }
        twin.destroy(payable(msg.sender));
        payable(msg.sender).transfer(1 wei);
        if (depth > 0) this.recurse(depth);
        emit Step(2, "done");
        return counter;
    }

    function recurse(uint256 n) external returns (uint256) {
        if (n == 0) return 0;
        return this.recurse(n - 1) + 1;
    }

    function failReason() external pure {
        revert("not enough tokens");
    }

    function failIndex(uint256 i) external pure returns (uint256) {
        uint256[] memory a = new uint256[](1);
        return a[i];
    }

    function failOverflow(uint8 x) external pure returns (uint8) {
        return x + 1;
    }

    function failCustom() external view {
        revert Nope(msg.sender, 0, 1e24);
    }

    /// The revert comes from a child two calls down and bubbles up unchanged.
    function failDeep() external {
        Child child = new Child();
        this.relay(child);
    }

    function relay(Child child) external pure {
        child.fail("deep reason");
    }

    function burn() external {
        while (true) {
            counter++;
        }
    }

    function invalidOp() external pure {
        assembly {
            invalid()
        }
    }

    /// Hostile text: a revert string that tries to drive the terminal.
    function evil() external {
        emit Note("\x1b]0;pwned\x07\x1b[2J");
        revert("\x1b[31mred\x1b[0m\r\u202Egnp.exe\u200b");
    }
}

/// A minimal ERC-20 with a custom error, for decoding by built-in ABIs (no artifacts) and by name
/// (with the project's artifacts).
contract Token {
    string public name = "Test Token";
    string public symbol = "TT";
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    error InsufficientBalance(address who, uint256 have, uint256 want);

    constructor(uint256 supply) {
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        _move(msg.sender, to, amount);
        return true;
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        allowance[from][msg.sender] -= amount;
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

/// For the benchmark: one transaction with n internal calls, each emitting one event.
contract Fanout {
    event Leaf(uint256 indexed i, uint256 value);

    function many(uint256 n) external {
        for (uint256 i = 0; i < n; i++) this.leaf(i);
    }

    function leaf(uint256 i) external {
        emit Leaf(i, i * 2);
    }
}

/// Storage of every layout shape solc has, for naming changed slots from `storageLayout`: packed
/// variables, a short string, mappings (plain, nested, to a struct, to an array), a dynamic array,
/// a struct. Run behind Proxy1967 (its storage is the proxy's), and directly.
contract Vault {
    struct Position {
        uint128 amount;
        uint64 since;
        bool open;
        address owner;
    }

    uint128 public total;
    uint64 public epoch;
    bool public paused;
    address public admin;
    string public title;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    mapping(uint256 => Position) public positions;
    mapping(address => uint256[]) public history;
    uint256[] public items;
    Position public last;

    event Filled(address indexed who, uint256 amount);

    function fill(address other, uint256 amount, uint256 id, MetaToken tokenA, MetaToken tokenB) external payable {
        total += uint128(amount);
        epoch = 7;
        paused = true;
        admin = msg.sender;
        title = "vault";
        balanceOf[msg.sender] = amount;
        allowance[msg.sender][other] = amount / 2;
        positions[id] = Position(uint128(amount), 9, true, other);
        history[other].push(amount + 1);
        items.push(amount * 3);
        last = Position(1, 2, true, msg.sender);
        tokenA.mint(other, amount);
        tokenB.mint(msg.sender, amount * 2);
        tokenB.mint(other, 5);
        payable(other).transfer(msg.value / 2);
        emit Filled(msg.sender, amount);
    }
}

/// An EIP-1967 proxy: the implementation's address in the standard slot, every call delegated to it.
contract Proxy1967 {
    bytes32 private constant IMPLEMENTATION = 0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc;
    bytes32 private constant ADMIN = 0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103;

    constructor(address implementation) {
        assembly {
            sstore(IMPLEMENTATION, implementation)
            sstore(ADMIN, caller())
        }
    }

    fallback() external payable {
        assembly {
            let impl := sload(IMPLEMENTATION)
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), impl, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            if iszero(ok) { revert(0, returndatasize()) }
            return(0, returndatasize())
        }
    }
}

/// A token whose metadata is read for balance changes: symbol() as a string (here one that tries to
/// drive the terminal) or, as some early tokens do (MKR), as bytes32; with neither, symbol() reverts.
contract MetaToken {
    string private symbolText;
    bytes32 private symbolWord;
    uint8 public decimals;

    event Transfer(address indexed from, address indexed to, uint256 value);

    constructor(string memory text, bytes32 word, uint8 decimals_) {
        symbolText = text;
        symbolWord = word;
        decimals = decimals_;
    }

    function symbol() external view returns (string memory) {
        require(symbolWord != bytes32(0) || bytes(symbolText).length > 0, "no symbol");
        if (symbolWord != bytes32(0)) {
            bytes32 word = symbolWord;
            assembly {
                mstore(0, word)
                return(0, 32)
            }
        }
        return symbolText;
    }

    function mint(address to, uint256 amount) external {
        emit Transfer(address(0), to, amount);
    }
}

/// Hostile text for the HTML report: an event string and a (caught) revert string that try to become
/// markup and script.
contract Hostile {
    event Note(string text);

    function evilHtml() external {
        emit Note("<img src=x onerror=alert(1)>");
        try this.failWith("</script><script>alert(1)</script>") {} catch {}
    }

    function failWith(string calldata why) external pure {
        revert(why);
    }
}
