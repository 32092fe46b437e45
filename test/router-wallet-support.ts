import { Secp256k1HdWallet } from '@cosmjs/amino';
import { DirectSecp256k1HdWallet, Registry } from '@cosmjs/proto-signing';
import { AminoTypes, SigningStargateClient } from '@cosmjs/stargate';
import { aminoConverters, protoRegistry } from '@initia/amino-converter';
import { createPublicClient, createWalletClient, defineChain, type Hex, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { expect } from 'vitest';
import type { DevnetChain } from 'weft-devnet/devnet.js';
import type { DevAccount } from 'weft-devnet/keys.js';

/**
 * What a wallet does with the router's msgs: decodes each `cosmos_tx` msg with the Initia amino types
 * (as interwovenkit does) and signs it with cosmjs, or sends the `evm_tx` with viem.
 */

export const aminoTypes = new AminoTypes(aminoConverters);
// amino-converter types its registry with its own copy of @cosmjs/proto-signing: the same shapes.
export const protos = new Registry(protoRegistry as never);

/** interwovenkit's decoding of a `cosmos_tx` msg: the amino type of the proto URL, `fromAmino` of the parsed JSON. */
export function decode(msg: { msg: string; msg_type_url: string }) {
  const converter = aminoConverters[msg.msg_type_url];
  if (!converter) throw new Error(`Unsupported message type: ${msg.msg_type_url}`);
  return aminoTypes.fromAmino({ type: converter.aminoType, value: JSON.parse(msg.msg) });
}

/**
 * Signs the decoded msgs as a wallet does: cosmjs' SigningStargateClient over the chain's RPC (the
 * account read with abci_query), in SIGN_MODE_LEGACY_AMINO_JSON or SIGN_MODE_DIRECT, then broadcasts
 * and answers the tx hash (uppercase hex). The tx must succeed unless `mayFail` (a tx that fails in its
 * block still has a hash).
 */
export async function signAndBroadcast(
  chain: DevnetChain,
  from: DevAccount,
  msgs: Array<{ typeUrl: string; value: any }>,
  mode: 'amino' | 'direct' = 'amino',
  mayFail = false,
): Promise<string> {
  const wallet =
    mode === 'amino'
      ? await Secp256k1HdWallet.fromMnemonic(from.mnemonic, { prefix: 'init' })
      : await DirectSecp256k1HdWallet.fromMnemonic(from.mnemonic, { prefix: 'init' });
  const [signer] = await wallet.getAccounts();
  const client = await SigningStargateClient.connectWithSigner(chain.urls.rpc, wallet, {
    registry: protos,
    aminoTypes,
    broadcastPollIntervalMs: 100,
  });
  const gas = 400_000;
  const fee = {
    amount: [
      { denom: chain.chain.info.denom, amount: String(Math.ceil(gas * chain.chain.info.minGasPrice)) },
    ],
    gas: String(gas),
  };
  const result = await client.signAndBroadcast(signer!.address, msgs, fee, '');
  client.disconnect();
  if (!mayFail) expect(result.code, result.rawLog).toBe(0);
  return result.transactionHash;
}

export const bankBalance = async (chain: Pick<DevnetChain, 'chain'>, address: string, denom: string) =>
  BigInt((await chain.chain.balances(address)).find((c) => c.denom === denom)?.amount ?? '0');

export const evmChain = (id: number, rpc: string) =>
  defineChain({
    id,
    name: `chain-${id}`,
    nativeCurrency: { name: 'GAS', symbol: 'GAS', decimals: 18 },
    rpcUrls: { default: { http: [rpc] } },
  });

/** Sends an `evm_tx` as a wallet does (viem, the sender's key) and waits for a successful receipt. */
export async function sendEvmTx(
  jsonRpc: string,
  from: DevAccount,
  tx: { chain_id: string; to: Hex; data: string; value: string },
): Promise<Hex> {
  const chain = evmChain(Number(tx.chain_id), jsonRpc);
  const wallet = createWalletClient({
    chain,
    transport: http(),
    account: privateKeyToAccount(from.privateKey as Hex),
  });
  const reader = createPublicClient({ chain, transport: http() });
  const hash = await wallet.sendTransaction({ to: tx.to, data: `0x${tx.data}`, value: BigInt(tx.value) });
  expect((await reader.waitForTransactionReceipt({ hash })).status).toBe('success');
  return hash;
}
