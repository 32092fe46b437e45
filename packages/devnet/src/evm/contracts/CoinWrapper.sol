// SPDX-License-Identifier: MIT
pragma solidity ^0.8.25;

interface IERC20Underlying {
    function balanceOf(address account) external view returns (uint256);
    function transferFrom(address sender, address recipient, uint256 amount) external returns (bool);
    function transfer(address recipient, uint256 amount) external returns (bool);
}

/// An ERC20 that wraps another ERC20 (here the ERC20 of a bank coin) 1:1: `wrapAll` pulls the caller's
/// whole balance of the underlying token (approved to this contract beforehand) and mints as much of
/// this one; `unwrap` burns and pays the underlying back.
contract CoinWrapper {
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event Wrapped(address indexed account, uint256 amount);
    event Unwrapped(address indexed account, uint256 amount);

    IERC20Underlying public immutable underlying;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    string public name;
    string public symbol;
    uint8 public decimals;
    uint256 public totalSupply;

    constructor(address _underlying, string memory _name, string memory _symbol, uint8 _decimals) {
        underlying = IERC20Underlying(_underlying);
        name = _name;
        symbol = _symbol;
        decimals = _decimals;
    }

    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        // IERC165 and IERC20
        return interfaceId == 0x01ffc9a7 || interfaceId == 0x36372b07;
    }

    function _transfer(address sender, address recipient, uint256 amount) internal {
        require(balanceOf[sender] >= amount, "ERC20: transfer amount exceeds balance");
        balanceOf[sender] -= amount;
        balanceOf[recipient] += amount;
        emit Transfer(sender, recipient, amount);
    }

    function transfer(address recipient, uint256 amount) external returns (bool) {
        _transfer(msg.sender, recipient, amount);
        return true;
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transferFrom(address sender, address recipient, uint256 amount) external returns (bool) {
        require(allowance[sender][msg.sender] >= amount, "ERC20: transfer amount exceeds allowance");
        allowance[sender][msg.sender] -= amount;
        _transfer(sender, recipient, amount);
        return true;
    }

    /// Wraps the caller's whole balance of the underlying token; answers the amount wrapped.
    function wrapAll() external returns (uint256 amount) {
        amount = underlying.balanceOf(msg.sender);
        require(amount > 0, "CoinWrapper: nothing to wrap");
        require(underlying.transferFrom(msg.sender, address(this), amount), "CoinWrapper: pull failed");
        balanceOf[msg.sender] += amount;
        totalSupply += amount;
        emit Transfer(address(0), msg.sender, amount);
        emit Wrapped(msg.sender, amount);
    }

    /// Burns `amount` of the caller's wrapped tokens and pays as much of the underlying token back.
    function unwrap(uint256 amount) external {
        require(balanceOf[msg.sender] >= amount, "ERC20: burn amount exceeds balance");
        balanceOf[msg.sender] -= amount;
        totalSupply -= amount;
        emit Transfer(msg.sender, address(0), amount);
        require(underlying.transfer(msg.sender, amount), "CoinWrapper: payout failed");
        emit Unwrapped(msg.sender, amount);
    }
}
