import { encodeSecp256k1Pubkey } from '@cosmjs/amino';
import { fromBase64 } from '@cosmjs/encoding';
import {
  DirectSecp256k1HdWallet,
  encodePubkey,
  makeAuthInfoBytes,
  makeSignDoc,
  Registry,
} from '@cosmjs/proto-signing';
import { Comet38Client } from '@cosmjs/tendermint-rpc';
import { MsgTransfer } from '@initia/initia.proto/ibc/applications/transfer/v1/tx.js';
import { TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { fromBech32 } from 'weft/chain/address.js';
import { silentLogger } from 'weft/common/logger.js';
import { escrowAddressBytes } from 'weft/protocol/ics20.js';
import type { Chain } from 'weft-devnet/chain.js';
import { listChannels } from 'weft-devnet/ibc/core/store.js';
import { type IbcChannelConfig, withIbc } from 'weft-devnet/ibc/setup.js';
import { denomTraceOf } from 'weft-devnet/ibc/transfer/denom.js';
import { MSG_TRANSFER } from 'weft-devnet/ibc/transfer/module.js';
import type { DevAccount } from 'weft-devnet/keys.js';
import { createRollup, type Rollup } from 'weft-devnet/rollup.js';
import { type NodeServers, startNodeServers } from 'weft-devnet/servers/index.js';
import type { VmType } from 'weft-devnet/types.js';
import { vmParts } from 'weft-devnet/vms.js';

/** Chains with IBC, their node surfaces, a wallet that signs as cosmjs' SigningStargateClient does. */

export interface IbcTestChain extends Rollup {
  relayer: DevAccount;
  servers: NodeServers;
}

export async function ibcChain(options: {
  vm: VmType;
  chainId: string;
  seed: string;
  channels: IbcChannelConfig[];
}): Promise<IbcTestChain> {
  let relayer: DevAccount | undefined;
  const rollup = await createRollup(
    {
      vm: options.vm,
      chainId: options.chainId,
      seed: options.seed,
      accounts: 4,
      blockTimeMs: 1000,
      logger: silentLogger(),
    },
    async (base) => {
      relayer = base.relayer;
      const parts = await vmParts(options.vm, { ...base, seed: options.seed, logger: silentLogger() });
      return withIbc(base, parts, { channels: options.channels });
    },
  );
  const servers = await startNodeServers(rollup.chain, { host: '127.0.0.1' });
  return { ...rollup, relayer: relayer!, servers };
}

const registry = new Registry([[MSG_TRANSFER, MsgTransfer]]);

/** Signs a `MsgTransfer` in SIGN_MODE_DIRECT with cosmjs' HD wallet and broadcasts it through CometBFT RPC. */
export async function sendTransfer(
  chain: IbcTestChain,
  account: DevAccount,
  msg: {
    sourceChannel: string;
    token: { denom: string; amount: string };
    receiver: string;
    timeoutHeight?: { revisionNumber: bigint; revisionHeight: bigint };
    timeoutTimestamp?: bigint;
    memo?: string;
  },
): Promise<string> {
  const wallet = await DirectSecp256k1HdWallet.fromMnemonic(account.mnemonic, { prefix: 'init' });
  const [signer] = await wallet.getAccounts();
  const info = (await (
    await fetch(`${chain.servers.urls.rest}/cosmos/auth/v1beta1/accounts/${signer!.address}`)
  ).json()) as {
    account: { account_number: string; sequence: string };
  };
  const value = MsgTransfer.fromPartial({
    sourcePort: 'transfer',
    sourceChannel: msg.sourceChannel,
    token: msg.token,
    sender: signer!.address,
    receiver: msg.receiver,
    timeoutHeight: msg.timeoutHeight ?? { revisionNumber: 0n, revisionHeight: 0n },
    timeoutTimestamp: msg.timeoutTimestamp ?? 0n,
    memo: msg.memo ?? '',
  });
  const bodyBytes = registry.encodeTxBody({ messages: [{ typeUrl: MSG_TRANSFER, value }], memo: '' });
  const gasLimit = 400_000;
  const authInfoBytes = makeAuthInfoBytes(
    [
      {
        pubkey: encodePubkey(encodeSecp256k1Pubkey(signer!.pubkey)),
        sequence: Number(info.account.sequence),
      },
    ],
    [{ denom: chain.chain.info.denom, amount: String(Math.ceil(gasLimit * chain.chain.info.minGasPrice)) }],
    gasLimit,
    undefined,
    undefined,
  );
  const signDoc = makeSignDoc(
    bodyBytes,
    authInfoBytes,
    chain.chain.info.chainId,
    Number(info.account.account_number),
  );
  const { signed, signature } = await wallet.signDirect(signer!.address, signDoc);
  const tx = TxRaw.encode(
    TxRaw.fromPartial({
      bodyBytes: signed.bodyBytes,
      authInfoBytes: signed.authInfoBytes,
      signatures: [fromBase64(signature.signature)],
    }),
  ).finish();
  const comet = await Comet38Client.connect(chain.servers.urls.rpc);
  try {
    const result = await comet.broadcastTxSync({ tx });
    if (result.code !== 0) throw new Error(`broadcast refused: ${result.log}`);
    return Buffer.from(result.hash).toString('hex').toUpperCase();
  } finally {
    comet.disconnect();
  }
}

export const latestTimeNs = (chain: Chain) =>
  BigInt(Date.parse(chain.getBlock(chain.latestHeight())!.block.block.header.time as string)) * 1_000_000n;

/**
 * What circulates of each asset (`<origin chain>:<base denom>`) across the chains: every balance except the
 * escrow accounts', vouchers resolved to their origin by following the channels of their trace. IBC
 * conserves it once no packet is in flight.
 */
export async function circulating(chains: IbcTestChain[]): Promise<Record<string, string>> {
  const byId = new Map(chains.map((c) => [c.chain.info.chainId, c.chain]));
  const origin = (chain: Chain, denom: string): string => {
    if (!denom.startsWith('ibc/')) return `${chain.info.chainId}:${denom}`;
    const trace = denomTraceOf(chain.state(), denom);
    if (!trace) throw new Error(`no trace for ${denom} on ${chain.info.chainId}`);
    let at = chain;
    const parts = trace.path.split('/');
    for (let i = 0; i < parts.length; i += 2) {
      const end = listChannels(at.state()).find((c) => c.portId === parts[i] && c.channelId === parts[i + 1]);
      at = byId.get(end!.counterpartyChainId)!;
    }
    return `${at.info.chainId}:${trace.baseDenom}`;
  };
  const totals: Record<string, bigint> = {};
  for (const chain of byId.values()) {
    const escrows = new Set(
      listChannels(chain.state()).map((c) =>
        Buffer.from(escrowAddressBytes(c.portId, c.channelId)).toString('hex'),
      ),
    );
    for (const account of chain.accounts()) {
      if (escrows.has(Buffer.from(fromBech32(account.address).bytes).toString('hex'))) continue;
      for (const coin of await chain.balances(account.address)) {
        const asset = origin(chain, coin.denom);
        totals[asset] = (totals[asset] ?? 0n) + BigInt(coin.amount);
      }
    }
  }
  return Object.fromEntries(Object.entries(totals).map(([k, v]) => [k, v.toString()]));
}

export async function balanceOf(chain: IbcTestChain, address: string, denom: string): Promise<bigint> {
  const coins = await chain.chain.balances(address);
  return BigInt(coins.find((c) => c.denom === denom)?.amount ?? '0');
}
