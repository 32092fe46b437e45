// SPDX-License-Identifier: MIT
pragma solidity ^0.8.25;

/// The ERC20 behind a bank denom, shaped like minievm's `ERC20`: the chain (the std address 0x1) moves,
/// mints and burns balances through the `sudo*` functions, and the storage layout matches (owner in
/// slot 0, balances in slot 1) so the chain can read balances straight from storage.
contract NativeERC20 {
    address constant CHAIN_ADDRESS = 0x0000000000000000000000000000000000000001;

    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    address public owner;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    string public name;
    string public symbol;
    uint8 public decimals;
    uint256 public totalSupply;
    bool public metadataSealed;

    modifier onlyOwner() {
        require(msg.sender == owner);
        _;
    }

    modifier onlyChain() {
        require(msg.sender == CHAIN_ADDRESS, "ERC20: caller is not the chain");
        _;
    }

    constructor(string memory _name, string memory _symbol, uint8 _decimals, bool _metadataSealed) {
        owner = msg.sender;
        name = _name;
        symbol = _symbol;
        decimals = _decimals;
        metadataSealed = _metadataSealed;
    }

    function supportsInterface(bytes4 interfaceId) external pure returns (bool) {
        // IERC165 and IERC20
        return interfaceId == 0x01ffc9a7 || interfaceId == 0x36372b07;
    }

    function transferOwnership(address newOwner) external onlyOwner {
        require(newOwner != address(0));
        emit OwnershipTransferred(owner, newOwner);
        owner = newOwner;
    }

    function _transfer(address sender, address recipient, uint256 amount) internal {
        require(balanceOf[sender] >= amount, "ERC20: transfer amount exceeds balance");
        balanceOf[sender] -= amount;
        balanceOf[recipient] += amount;
        emit Transfer(sender, recipient, amount);
    }

    function _mint(address to, uint256 amount) internal {
        balanceOf[to] += amount;
        totalSupply += amount;
        emit Transfer(address(0), to, amount);
    }

    function _burn(address from, uint256 amount) internal {
        require(balanceOf[from] >= amount, "ERC20: burn amount exceeds balance");
        balanceOf[from] -= amount;
        totalSupply -= amount;
        emit Transfer(from, address(0), amount);
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

    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }

    function burn(uint256 amount) external {
        _burn(msg.sender, amount);
    }

    function burnFrom(address from, uint256 amount) external returns (bool) {
        require(allowance[from][msg.sender] >= amount, "ERC20: burn amount exceeds allowance");
        allowance[from][msg.sender] -= amount;
        _burn(from, amount);
        return true;
    }

    function sudoTransfer(address sender, address recipient, uint256 amount) external onlyChain {
        _transfer(sender, recipient, amount);
    }

    function sudoMint(address to, uint256 amount) external onlyChain {
        _mint(to, amount);
    }

    function sudoBurn(address from, uint256 amount) external onlyChain {
        _burn(from, amount);
    }
}
