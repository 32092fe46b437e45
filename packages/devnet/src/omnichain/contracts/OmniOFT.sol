// SPDX-License-Identifier: MIT
pragma solidity ^0.8.25;

import "./OmniTypes.sol";

/// An omnichain fungible token in the manner of LayerZero's OFT: an ERC20 that burns on `send` and mints on
/// delivery, with amounts travelling in shared decimals (6) so that chains of other decimals agree. The
/// message is `to (bytes32) ‖ amountSD (uint64)`, as an OFT's. The owner may pause it; a paused token
/// refuses sends and deliveries (a delivery then fails and is retried once it is resumed).
contract OmniOFT is IOmniReceiver {
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event PeerSet(uint32 eid, bytes32 peer);
    event PausedSet(bool paused);
    event OFTSent(
        bytes32 indexed guid, uint32 dstEid, address indexed fromAddress, uint256 amountSentLD, uint256 amountReceivedLD
    );
    event OFTReceived(bytes32 indexed guid, uint32 srcEid, address indexed toAddress, uint256 amountReceivedLD);

    error OnlyEndpoint(address addr);
    error OnlyPeer(uint32 eid, bytes32 sender);
    error NoPeer(uint32 eid);
    error SlippageExceeded(uint256 amountLD, uint256 minAmountLD);
    error NotEnoughNative(uint256 msgValue);
    error LzTokenUnavailable();
    error Paused();
    error Unauthorized();

    uint8 public constant decimals = 18;
    uint8 public constant sharedDecimals = 6;
    uint256 public constant decimalConversionRate = 10 ** (18 - 6);

    string public name;
    string public symbol;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    IOmniEndpoint public immutable endpoint;
    address public owner;
    bool public paused;
    mapping(uint32 => bytes32) public peers;

    modifier onlyOwner() {
        if (msg.sender != owner) revert Unauthorized();
        _;
    }

    constructor(string memory _name, string memory _symbol, address _endpoint, address _owner) {
        name = _name;
        symbol = _symbol;
        endpoint = IOmniEndpoint(_endpoint);
        owner = _owner;
    }

    // ERC20

    function transfer(address to, uint256 amount) external returns (bool) {
        _transfer(msg.sender, to, amount);
        return true;
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        require(allowance[from][msg.sender] >= amount, "ERC20: insufficient allowance");
        allowance[from][msg.sender] -= amount;
        _transfer(from, to, amount);
        return true;
    }

    function _transfer(address from, address to, uint256 amount) internal {
        require(balanceOf[from] >= amount, "ERC20: transfer amount exceeds balance");
        balanceOf[from] -= amount;
        balanceOf[to] += amount;
        emit Transfer(from, to, amount);
    }

    function _mint(address to, uint256 amount) internal {
        totalSupply += amount;
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    function _burn(address from, uint256 amount) internal {
        require(balanceOf[from] >= amount, "ERC20: burn amount exceeds balance");
        balanceOf[from] -= amount;
        totalSupply -= amount;
        emit Transfer(from, address(0), amount);
    }

    // Administration

    function mint(address to, uint256 amount) external onlyOwner {
        _mint(to, amount);
    }

    function setPeer(uint32 eid, bytes32 peer) external onlyOwner {
        peers[eid] = peer;
        emit PeerSet(eid, peer);
    }

    function setPaused(bool _paused) external onlyOwner {
        paused = _paused;
        emit PausedSet(_paused);
    }

    // OFT

    function token() external view returns (address) {
        return address(this);
    }

    function _debitView(uint256 amountLD, uint256 minAmountLD) internal pure returns (OFTReceipt memory receipt) {
        uint256 sent = (amountLD / decimalConversionRate) * decimalConversionRate;
        if (sent < minAmountLD) revert SlippageExceeded(sent, minAmountLD);
        receipt = OFTReceipt(sent, sent);
    }

    function _message(SendParam calldata p, uint256 amountLD) internal pure returns (bytes memory) {
        return abi.encodePacked(p.to, uint64(amountLD / decimalConversionRate));
    }

    function _params(SendParam calldata p, uint256 amountLD, bool payInLzToken)
        internal
        view
        returns (MessagingParams memory)
    {
        bytes32 peer = peers[p.dstEid];
        if (peer == bytes32(0)) revert NoPeer(p.dstEid);
        return MessagingParams(p.dstEid, peer, _message(p, amountLD), p.extraOptions, payInLzToken);
    }

    function quoteOFT(SendParam calldata p) external pure returns (OFTReceipt memory) {
        return _debitView(p.amountLD, p.minAmountLD);
    }

    function quoteSend(SendParam calldata p, bool payInLzToken) external view returns (MessagingFee memory) {
        OFTReceipt memory r = _debitView(p.amountLD, p.minAmountLD);
        return endpoint.quote(_params(p, r.amountSentLD, payInLzToken), address(this));
    }

    function send(SendParam calldata p, MessagingFee calldata fee, address refundAddress)
        external
        payable
        returns (MessagingReceipt memory msgReceipt, OFTReceipt memory oftReceipt)
    {
        if (paused) revert Paused();
        if (fee.lzTokenFee != 0) revert LzTokenUnavailable();
        if (msg.value != fee.nativeFee) revert NotEnoughNative(msg.value);
        oftReceipt = _debitView(p.amountLD, p.minAmountLD);
        _burn(msg.sender, oftReceipt.amountSentLD);
        msgReceipt = endpoint.send{value: fee.nativeFee}(_params(p, oftReceipt.amountSentLD, false), refundAddress);
        emit OFTSent(msgReceipt.guid, p.dstEid, msg.sender, oftReceipt.amountSentLD, oftReceipt.amountReceivedLD);
    }

    function lzReceive(Origin calldata origin, bytes32 guid, bytes calldata message, address, bytes calldata)
        external
        payable
    {
        if (msg.sender != address(endpoint)) revert OnlyEndpoint(msg.sender);
        if (peers[origin.srcEid] != origin.sender) revert OnlyPeer(origin.srcEid, origin.sender);
        if (paused) revert Paused();
        address to = address(uint160(uint256(bytes32(message[0:32]))));
        if (to == address(0)) to = address(0xdead);
        uint256 amountLD = uint256(uint64(bytes8(message[32:40]))) * decimalConversionRate;
        _mint(to, amountLD);
        emit OFTReceived(guid, origin.srcEid, to, amountLD);
    }
}
