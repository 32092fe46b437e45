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
  TransactionReceiptNotFoundError,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { decodePacket, type OmniPacket, payloadHash } from 'weft/protocol/omnichain.js';
import { contractArtifacts } from '../evm/contracts.js';
import { pollFor } from './cadence.js';
import type { OmnichainSide, RelayResult } from './omnichain.js';

export interface EvmSideOptions {
  eid: number;
  chainId: string;
  evmChainId: number;
  jsonRpc: string;
  endpoint: Hex;
  /** The relayer's own key: it is the endpoint's verifier and executor. */
  privateKey: Hex;
  /** How often a sent tx's receipt is looked for (default 50 ms). */
  waitPollMs?: number;
  /** First block to read (default: the current one). */
  fromBlock?: bigint;
}

const VERIFY_GAS = 300_000n;
const DELIVER_GAS = 1_500_000n;
const WAIT_POLL_MS = 50;
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
  const client = createPublicClient({ chain, transport });
  const waitPollMs = options.waitPollMs ?? WAIT_POLL_MS;
  // Made by the first submit: the key's public point costs JavaScript's curve its tables (0.1–0.2 s of
  // CPU at the dev stack's start otherwise).
  let signer:
    | { account: ReturnType<typeof privateKeyToAccount>; wallet: ReturnType<typeof createWalletClient> }
    | undefined;
  const signing = () => {
    if (!signer) {
      const account = privateKeyToAccount(options.privateKey);
      signer = { account, wallet: createWalletClient({ chain, transport, account }) };
    }
    return signer;
  };
  let next = options.fromBlock;

  /**
   * The receipt of a sent tx, asked for every `waitPollMs` until its block is made: one call a poll, where
   * viem's `waitForTransactionReceipt` also reads the head and the tx itself.
   */
  const receiptOf = (hash: Hex) =>
    pollFor(
      () =>
        client.getTransactionReceipt({ hash }).catch((err: unknown) => {
          if (err instanceof TransactionReceiptNotFoundError) return undefined;
          throw err;
        }),
      {
        everyMs: waitPollMs,
        timeoutMs: RECEIPT_TIMEOUT_MS,
        late: () => new Error(`no receipt for ${hash} within ${RECEIPT_TIMEOUT_MS} ms`),
      },
    );

  const origin = (p: OmniPacket) => ({ srcEid: p.srcEid, sender: p.sender, nonce: p.nonce });
  const receiver = (p: OmniPacket) => getAddress(sliceHex(p.receiver, 12));

  return {
    eid: options.eid,
    chainId: options.chainId,
    async poll() {
      // viem keeps a block number for its polling interval (4 s): a poll must see the head as it is now.
      const latest = await client.getBlockNumber({ cacheTime: 0 });
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
    async submit(ops) {
      // Consecutive nonces, so a verification and the delivery it allows can share a block.
      const { account, wallet } = signing();
      let nonce = await client.getTransactionCount({ address: account.address, blockTag: 'latest' });
      const sent: Array<Hex | Error> = [];
      for (const op of ops) {
        const p = op.packet;
        try {
          sent.push(
            await wallet.writeContract({
              address: options.endpoint,
              abi,
              nonce,
              ...(op.kind === 'verify'
                ? { functionName: 'verify', args: [origin(p), receiver(p), payloadHash(p)], gas: VERIFY_GAS }
                : {
                    functionName: 'lzReceive',
                    args: [origin(p), receiver(p), p.guid, p.message, '0x'],
                    gas: DELIVER_GAS,
                  }),
            } as never),
          );
          nonce += 1;
        } catch (err) {
          sent.push(err as Error);
        }
      }
      return Promise.all(
        sent.map(async (hash): Promise<RelayResult> => {
          if (hash instanceof Error) return { ok: false, error: hash.message };
          try {
            const receipt = await receiptOf(hash);
            if (receipt.status !== 'success') return { ok: false, txHash: hash, error: 'reverted' };
            const events = parseEventLogs({ abi, logs: receipt.logs }).map((e) => e.eventName);
            return {
              ok: true,
              txHash: hash,
              outcome: events.includes('PacketDelivered') ? 'delivered' : 'failed',
            };
          } catch (err) {
            return { ok: false, txHash: hash, error: (err as Error).message };
          }
        }),
      );
    },
  };
}
