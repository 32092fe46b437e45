import { parseAbi } from 'viem';

/**
 * The OFT and endpoint ABIs as a client writes them from LayerZero's published interfaces (not from the
 * devnet's artifacts), so tests call the devnet's contracts the way wallets and apps do.
 */
export const OFT_CLIENT_ABI = parseAbi([
  'struct SendParam { uint32 dstEid; bytes32 to; uint256 amountLD; uint256 minAmountLD; bytes extraOptions; bytes composeMsg; bytes oftCmd; }',
  'struct MessagingFee { uint256 nativeFee; uint256 lzTokenFee; }',
  'function quoteSend(SendParam sendParam, bool payInLzToken) view returns (MessagingFee)',
  'function send(SendParam sendParam, MessagingFee fee, address refundAddress) payable returns ((bytes32 guid, uint64 nonce, MessagingFee fee) msgReceipt, (uint256 amountSentLD, uint256 amountReceivedLD) oftReceipt)',
  'function balanceOf(address) view returns (uint256)',
  'function totalSupply() view returns (uint256)',
  'function setPaused(bool paused)',
  'event OFTSent(bytes32 indexed guid, uint32 dstEid, address indexed fromAddress, uint256 amountSentLD, uint256 amountReceivedLD)',
  'event OFTReceived(bytes32 indexed guid, uint32 srcEid, address indexed toAddress, uint256 amountReceivedLD)',
]);

export const ENDPOINT_CLIENT_ABI = parseAbi([
  'struct Origin { uint32 srcEid; bytes32 sender; uint64 nonce; }',
  'event PacketSent(bytes encodedPayload, bytes options, address sendLibrary)',
  'event PacketVerified(Origin origin, address receiver, bytes32 payloadHash)',
  'event PacketDelivered(Origin origin, address receiver)',
  'event LzReceiveAlert(address indexed receiver, address indexed executor, Origin origin, bytes32 guid, uint256 gas, uint256 value, bytes message, bytes extraData, bytes reason)',
]);
