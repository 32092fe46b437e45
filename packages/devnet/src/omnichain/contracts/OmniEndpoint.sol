// SPDX-License-Identifier: MIT
pragma solidity ^0.8.25;

import "./OmniTypes.sol";

/// A minimal omnichain endpoint in the manner of LayerZero's EndpointV2: one endpoint id per chain, an
/// outbound nonce per path, sends paid in the native token, verification by the verifier role and delivery
/// by the executor role. A delivery whose receiver reverts keeps the packet verified for a retry and says so
/// with `LzReceiveAlert`, in a tx that succeeds so the alert stays on chain.
contract OmniEndpoint {
    event PacketSent(bytes encodedPayload, bytes options, address sendLibrary);
    event PacketVerified(Origin origin, address receiver, bytes32 payloadHash);
    event PacketDelivered(Origin origin, address receiver);
    event LzReceiveAlert(
        address indexed receiver,
        address indexed executor,
        Origin origin,
        bytes32 guid,
        uint256 gas,
        uint256 value,
        bytes message,
        bytes extraData,
        bytes reason
    );
    event RolesSet(address verifier, address executor);
    event FeesSet(uint256 baseFee, uint256 feePerByte);

    error LZ_InsufficientFee(uint256 requiredNative, uint256 suppliedNative, uint256 requiredLzToken, uint256 suppliedLzToken);
    error LZ_LzTokenUnavailable();
    error LZ_InvalidPayloadHash();
    error LZ_PayloadHashNotFound(bytes32 expected, bytes32 actual);
    error LZ_AlreadyDelivered();
    error LZ_SameEid();
    error Unauthorized();

    uint8 constant PACKET_VERSION = 1;

    address public owner;
    uint32 public eid;
    address public verifier;
    address public executor;
    uint256 public baseFee;
    uint256 public feePerByte;
    /// Native fees paid by senders and not yet withdrawn by the executor.
    uint256 public feesAccrued;

    mapping(address => mapping(uint32 => mapping(bytes32 => uint64))) public outboundNonce;
    mapping(bytes32 => bytes32) private inbound;
    mapping(bytes32 => bool) private delivered;

    modifier only(address who) {
        if (msg.sender != who) revert Unauthorized();
        _;
    }

    constructor(address _owner) {
        owner = _owner;
    }

    /// Set once per chain; the endpoint's address is the same on every chain, only its id differs.
    function initialize(uint32 _eid, address _verifier, address _executor, uint256 _baseFee, uint256 _feePerByte)
        external
        only(owner)
    {
        require(eid == 0, "endpoint: initialized");
        eid = _eid;
        setRoles(_verifier, _executor);
        setFees(_baseFee, _feePerByte);
    }

    function setRoles(address _verifier, address _executor) public only(owner) {
        verifier = _verifier;
        executor = _executor;
        emit RolesSet(_verifier, _executor);
    }

    function setFees(uint256 _baseFee, uint256 _feePerByte) public only(owner) {
        baseFee = _baseFee;
        feePerByte = _feePerByte;
        emit FeesSet(_baseFee, _feePerByte);
    }

    function quote(MessagingParams calldata params, address) public view returns (MessagingFee memory) {
        if (params.payInLzToken) revert LZ_LzTokenUnavailable();
        return MessagingFee(baseFee + feePerByte * params.message.length, 0);
    }

    function send(MessagingParams calldata params, address refundAddress)
        external
        payable
        returns (MessagingReceipt memory receipt)
    {
        if (params.dstEid == eid) revert LZ_SameEid();
        MessagingFee memory fee = quote(params, msg.sender);
        if (msg.value < fee.nativeFee) revert LZ_InsufficientFee(fee.nativeFee, msg.value, 0, 0);
        uint64 nonce = ++outboundNonce[msg.sender][params.dstEid][params.receiver];
        bytes32 sender = bytes32(uint256(uint160(msg.sender)));
        bytes32 guid = keccak256(abi.encodePacked(nonce, eid, sender, params.dstEid, params.receiver));
        emit PacketSent(
            abi.encodePacked(PACKET_VERSION, nonce, eid, sender, params.dstEid, params.receiver, guid, params.message),
            params.options,
            address(this)
        );
        feesAccrued += fee.nativeFee;
        if (msg.value > fee.nativeFee) {
            (bool ok,) = payable(refundAddress).call{value: msg.value - fee.nativeFee}("");
            require(ok, "endpoint: refund failed");
        }
        receipt = MessagingReceipt(guid, nonce, fee);
    }

    function pathKey(Origin calldata origin, address receiver) internal pure returns (bytes32) {
        return keccak256(abi.encode(receiver, origin.srcEid, origin.sender, origin.nonce));
    }

    function inboundPayloadHash(address receiver, uint32 srcEid, bytes32 sender, uint64 nonce)
        external
        view
        returns (bytes32)
    {
        return inbound[keccak256(abi.encode(receiver, srcEid, sender, nonce))];
    }

    /// 0 not executable, 1 verified and executable, 2 delivered (LayerZero's ExecutionState).
    function executionState(Origin calldata origin, address receiver) external view returns (uint8) {
        bytes32 key = pathKey(origin, receiver);
        if (delivered[key]) return 2;
        return inbound[key] == bytes32(0) ? 0 : 1;
    }

    function verify(Origin calldata origin, address receiver, bytes32 payloadHash) external only(verifier) {
        if (payloadHash == bytes32(0)) revert LZ_InvalidPayloadHash();
        bytes32 key = pathKey(origin, receiver);
        if (delivered[key]) revert LZ_AlreadyDelivered();
        inbound[key] = payloadHash;
        emit PacketVerified(origin, receiver, payloadHash);
    }

    function lzReceive(
        Origin calldata origin,
        address receiver,
        bytes32 guid,
        bytes calldata message,
        bytes calldata extraData
    ) external payable only(executor) {
        bytes32 key = pathKey(origin, receiver);
        bytes32 expected = inbound[key];
        bytes32 actual = keccak256(abi.encodePacked(guid, message));
        if (expected == bytes32(0) || expected != actual) revert LZ_PayloadHashNotFound(expected, actual);
        // Cleared before the call, so the receiver cannot have it delivered twice.
        delete inbound[key];
        delivered[key] = true;
        try IOmniReceiver(receiver).lzReceive{value: msg.value}(origin, guid, message, msg.sender, extraData) {
            emit PacketDelivered(origin, receiver);
        } catch (bytes memory reason) {
            inbound[key] = expected;
            delivered[key] = false;
            emit LzReceiveAlert(receiver, msg.sender, origin, guid, gasleft(), msg.value, message, extraData, reason);
            if (msg.value > 0) {
                (bool ok,) = payable(msg.sender).call{value: msg.value}("");
                require(ok, "endpoint: refund failed");
            }
        }
    }

    /// The executor collects the native fees senders paid.
    function withdrawFees(address to) external only(executor) {
        uint256 amount = feesAccrued;
        feesAccrued = 0;
        (bool ok,) = payable(to).call{value: amount}("");
        require(ok, "endpoint: withdraw failed");
    }
}
