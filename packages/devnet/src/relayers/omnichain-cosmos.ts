import type { Comet38Client } from '@cosmjs/tendermint-rpc';
import { type Hex, hexToBytes } from 'viem';
import { bcs } from 'weft/chain/bcs.js';
import { encodeAny } from 'weft/chain/registry.js';
import { decodePacket, type OmniPacket, payloadHash } from 'weft/protocol/omnichain.js';
import type { DevAccount } from '../keys.js';
import { MSG_EXECUTE } from '../move/module.js';
import { MOVE_PACKAGE } from '../omnichain/network.js';
import { signTx } from '../tx/sign.js';
import { pollFor } from './cadence.js';
import type { OmnichainSide, RelayResult } from './omnichain.js';

export interface CosmosSideOptions {
  eid: number;
  chainId: string;
  /** CometBFT RPC and Cosmos REST of the chain. */
  rpc: string;
  rest: string;
  /** The relayer's account on this chain: the module's verifier and executor. */
  operator: DevAccount;
  feeDenom: string;
  minGasPrice: number;
  /** How often a broadcast tx is looked for in the chain's blocks (default 50 ms). */
  waitPollMs?: number;
  /** First height to read (default: the current one). */
  fromHeight?: number;
}

const GAS_LIMIT = 400_000n;
const WAIT_POLL_MS = 50;
const COMMIT_TIMEOUT_MS = 60_000;

const u32 = (v: number) => Uint8Array.of(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff);
const bytes = (h: Hex) => bcs.byteVector(hexToBytes(h));

/**
 * A Move chain with the simulated omnichain package (the L1, or a Move rollup standing in for it), read
 * over CometBFT RPC (`block_results`) and written with `MsgExecute` txs signed by the relayer's key.
 */
export function cosmosSide(options: CosmosSideOptions): OmnichainSide {
  let client: Comet38Client | undefined;
  const comet = async () => {
    // Loaded by the relayer's first read (after the dev stack's start, which it would slow by 0.2 s).
    client ??= await (await import('@cosmjs/tendermint-rpc')).Comet38Client.connect(options.rpc);
    return client;
  };
  let next = options.fromHeight;

  const account = async () => {
    const response = await fetch(`${options.rest}/cosmos/auth/v1beta1/accounts/${options.operator.address}`);
    const body = (await response.json()) as { account?: { account_number: string; sequence: string } };
    if (!body.account)
      throw new Error(`omnichain: no account ${options.operator.address} on ${options.chainId}`);
    return { accountNumber: BigInt(body.account.account_number), sequence: BigInt(body.account.sequence) };
  };

  const sign = (
    moduleName: string,
    functionName: string,
    args: Uint8Array[],
    accountNumber: bigint,
    sequence: bigint,
  ) =>
    signTx({
      msgs: [
        encodeAny(MSG_EXECUTE, {
          sender: options.operator.address,
          moduleAddress: `0x${Buffer.from(MOVE_PACKAGE).toString('hex')}`,
          moduleName,
          functionName,
          typeArgs: [],
          args,
        }),
      ],
      fee: {
        amount: [
          { denom: options.feeDenom, amount: String(Math.ceil(Number(GAS_LIMIT) * options.minGasPrice)) },
        ],
        gasLimit: GAS_LIMIT,
      },
      signer: options.operator,
      chainId: options.chainId,
      accountNumber,
      sequence,
    });

  /** Waits for a broadcast tx's block; returns its result. */
  const committed = (c: Comet38Client, hash: Uint8Array) =>
    pollFor(async () => (await c.tx({ hash }).catch(() => undefined))?.result, {
      everyMs: options.waitPollMs ?? WAIT_POLL_MS,
      timeoutMs: COMMIT_TIMEOUT_MS,
      late: () => new Error('not committed in time'),
    });

  const originArgs = (p: OmniPacket) => [
    u32(p.srcEid),
    bytes(p.sender),
    bcs.u64(p.nonce),
    bcs.address(hexToBytes(p.receiver)),
  ];

  return {
    eid: options.eid,
    chainId: options.chainId,
    async poll() {
      const c = await comet();
      const latest = (await c.status()).syncInfo.latestBlockHeight;
      const from = next ?? latest;
      const packets: OmniPacket[] = [];
      for (let height = from; height <= latest; height += 1) {
        const results = await c.blockResults(height);
        for (const tx of results.results) {
          if (tx.code !== 0) continue;
          for (const e of tx.events) {
            if (e.type !== 'PacketSent') continue;
            const payload = e.attributes.find((a) => a.key === 'encodedPayload')?.value;
            if (payload) packets.push(decodePacket(payload as Hex));
          }
        }
      }
      next = latest + 1;
      return packets;
    },
    async submit(ops) {
      const c = await comet();
      const { accountNumber, sequence: first } = await account();
      let sequence = first;
      // Consecutive sequences, so a verification and the delivery it allows can share a block.
      const sent: Array<Uint8Array | Error> = [];
      for (const { kind, packet: p } of ops) {
        const args =
          kind === 'verify'
            ? [...originArgs(p), bytes(payloadHash(p))]
            : [...originArgs(p), bytes(p.guid), bytes(p.message), bytes('0x')];
        const tx = sign(
          'endpoint',
          kind === 'verify' ? 'verify' : 'lz_receive',
          args,
          accountNumber,
          sequence,
        );
        const checked = await c.broadcastTxSync({ tx }).catch((err: Error) => err);
        if (checked instanceof Error || checked.code !== 0) {
          sent.push(checked instanceof Error ? checked : new Error(checked.log ?? `code ${checked.code}`));
          continue;
        }
        sequence += 1n;
        sent.push(checked.hash);
      }
      return Promise.all(
        sent.map(async (hash): Promise<RelayResult> => {
          if (hash instanceof Error) return { ok: false, error: hash.message };
          const txHash = Buffer.from(hash).toString('hex').toUpperCase();
          try {
            const result = await committed(c, hash);
            if (result.code !== 0) return { ok: false, txHash, error: result.log ?? `code ${result.code}` };
            const delivered = result.events.some((e) => e.type === 'PacketDelivered');
            return { ok: true, txHash, outcome: delivered ? 'delivered' : 'failed' };
          } catch (err) {
            return { ok: false, txHash, error: (err as Error).message };
          }
        }),
      );
    },
  };
}
