import {
  type Abi,
  createPublicClient,
  createWalletClient,
  decodeEventLog,
  defineChain,
  getAddress,
  type Hex,
  http,
  parseEventLogs,
  sliceHex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { contractArtifacts } from '../evm/contracts.js';
import { decodePacket, type OmniPacket, payloadHash } from '../omnichain/packet.js';
import type { OmnichainSide } from './omnichain.js';

export interface EvmSideOptions {
  eid: number;
  chainId: string;
  evmChainId: number;
  jsonRpc: string;
  endpoint: Hex;
  /** The relayer's own key: it is the endpoint's verifier and executor. */
  privateKey: Hex;
  /** First block to read (default: the current one). */
  fromBlock?: bigint;
}

const VERIFY_GAS = 300_000n;
const DELIVER_GAS = 1_500_000n;
const POLL_MS = 50;
const RECEIPT_TIMEOUT_MS = 60_000;

/** An EVM chain seen over its JSON-RPC, with txs signed by the relayer's key as a wallet signs them. */
export function evmSide(options: EvmSideOptions): OmnichainSide {
  const abi = contractArtifacts().OmniEndpoint.abi as Abi;
  const chain = defineChain({
    id: options.evmChainId,
    name: options.chainId,
    nativeCurrency: { name: 'native', symbol: 'NATIVE', decimals: 18 },
    rpcUrls: { default: { http: [options.jsonRpc] } },
  });
  const transport = http(options.jsonRpc);
  const client = createPublicClient({ chain, transport, pollingInterval: POLL_MS });
  const wallet = createWalletClient({ chain, transport, account: privateKeyToAccount(options.privateKey) });
  let next = options.fromBlock;

  const origin = (p: OmniPacket) => ({ srcEid: p.srcEid, sender: p.sender, nonce: p.nonce });
  const receiver = (p: OmniPacket) => getAddress(sliceHex(p.receiver, 12));

  const send = async (functionName: string, args: unknown[], gas: bigint) => {
    const hash = await wallet.writeContract({
      address: options.endpoint,
      abi,
      functionName,
      args,
      gas,
    } as never);
    const receipt = await client.waitForTransactionReceipt({ hash, timeout: RECEIPT_TIMEOUT_MS });
    if (receipt.status !== 'success') throw new Error(`omnichain ${functionName} reverted in ${hash}`);
    return receipt;
  };

  return {
    eid: options.eid,
    chainId: options.chainId,
    async poll() {
      const latest = await client.getBlockNumber();
      const from = next ?? latest;
      if (from > latest) return [];
      const logs: Array<{ data: Hex; topics: [Hex, ...Hex[]] }> = await client.getLogs({
        address: options.endpoint,
        event: abi.find((e) => e.type === 'event' && e.name === 'PacketSent') as never,
        fromBlock: from,
        toBlock: latest,
      });
      next = latest + 1n;
      return logs.map((log) => {
        const { args } = decodeEventLog({ abi, data: log.data, topics: log.topics }) as unknown as {
          args: { encodedPayload: Hex };
        };
        return decodePacket(args.encodedPayload);
      });
    },
    async verify(p) {
      await send('verify', [origin(p), receiver(p), payloadHash(p)], VERIFY_GAS);
    },
    async deliver(p) {
      const receipt = await send('lzReceive', [origin(p), receiver(p), p.guid, p.message, '0x'], DELIVER_GAS);
      const events = parseEventLogs({ abi, logs: receipt.logs }).map((e) => e.eventName);
      return {
        outcome: events.includes('PacketDelivered') ? 'delivered' : 'failed',
        txHash: receipt.transactionHash,
      };
    },
  };
}
