import { encodeFunctionData, type Hex, pad, parseAbi, toHex } from 'viem';
import { RouteRequestError } from '../errors.js';
import type { Hop } from '../graph/hops.js';
import type { ChainFacts } from '../graph/plan.js';
import type { RouterChain } from '../registry/types.js';
import type { ChainAddress } from './addresses.js';
import { aminoMsg, type CosmosMsg, msgCall } from './amino.js';

const OFT_ABI = parseAbi([
  'struct SendParam { uint32 dstEid; bytes32 to; uint256 amountLD; uint256 minAmountLD; bytes extraOptions; bytes composeMsg; bytes oftCmd; }',
  'struct MessagingFee { uint256 nativeFee; uint256 lzTokenFee; }',
  'function send(SendParam sendParam, MessagingFee fee, address refundAddress) payable',
  'function approve(address spender, uint256 amount) returns (bool)',
]);

export type OftHop = Extract<Hop, { kind: 'oft' }>;

export interface OftSend {
  sender: ChainAddress;
  recipient: ChainAddress;
  /** What leaves the sender, in the source token's decimals (dust included: the OFT keeps it). */
  amountLD: bigint;
  minAmountLD: bigint;
}

/** The tx of an OFT send: Cosmos msgs signed by the sender's bech32 account, or an Ethereum tx. */
export type OftTx = { msgs: CosmosMsg[] } | { evmTx: Record<string, unknown> };

/**
 * The ERC20 an EVM endpoint's OFT moves when it is not the OFT itself (an adapter that locks a token):
 * the sender approves it to the OFT first. A native OFT burns its own token and needs no approval.
 */
function adapterToken(hop: OftHop): Hex | undefined {
  const match = /^evm\/([0-9a-fA-F]{40})$/.exec(hop.source.denom);
  if (!match) return undefined;
  const token = `0x${match[1]}` as Hex;
  return token.toLowerCase() === hop.source.oft.toLowerCase() ? undefined : token;
}

const needs = (chain: RouterChain, what: string) =>
  new RouteRequestError(`chain ${chain.chainId} sends OFT as ${what}`);

/**
 * The source tx of an OFT send, by where it starts:
 *
 * - the Move L1: one `MsgExecuteJSON` of `oft::send(…, native_fee, lz_token_fee)`;
 * - an Initia chain with an EVM (a minievm rollup, `chain_type` "cosmos"): `MsgCall`s as the sender's
 *   bech32 account, an adapter's `approve` when the allowance falls short, then the OFT's `send` with
 *   the quoted fee as `value`. Wallets look an `evm_tx`'s `chain_id` up among the chains and sign it
 *   only on `chain_type` "evm" chains; they sign Initia chains' txs as Cosmos txs;
 * - an EVM-only chain (`chain_type` "evm"): an `evm_tx` to the OFT's `send`, `chain_id` its EVM chain id,
 *   an adapter's approval in `required_erc20_approvals` (the wallet checks the allowance).
 */
export async function oftTx(
  facts: ChainFacts,
  source: RouterChain,
  hop: OftHop,
  send: OftSend,
): Promise<OftTx> {
  const { sender, amountLD, minAmountLD } = send;
  const fee = await facts.omnichainFee(hop.from, hop.source.oft, hop.destination.eid);
  const to = pad(toHex(send.recipient.bytes), { size: 32 });
  if (hop.source.kind === 'move') {
    if (!sender.bech32) throw needs(source, 'a Cosmos tx: it needs a bech32 sender');
    // `oft::send(dst_eid, to, amount_ld, min_amount_ld, extra_options, compose_msg, oft_cmd, native_fee,
    // lz_token_fee)`, its arguments JSON-encoded as MsgExecuteJSON takes them.
    return {
      msgs: [
        aminoMsg('/initia.move.v1.MsgExecuteJSON', {
          sender: sender.bech32,
          moduleAddress: hop.source.oft,
          moduleName: 'oft',
          functionName: 'send',
          typeArgs: [],
          args: [
            hop.destination.eid,
            to,
            String(amountLD),
            String(minAmountLD),
            '0x',
            '0x',
            '0x',
            String(fee),
            '0',
          ].map((arg) => JSON.stringify(arg)),
        }),
      ],
    };
  }
  const oft = hop.source.oft as Hex;
  const token = adapterToken(hop);
  const sendParam = {
    dstEid: hop.destination.eid,
    to,
    amountLD,
    minAmountLD,
    extraOptions: '0x' as Hex,
    composeMsg: '0x' as Hex,
    oftCmd: '0x' as Hex,
  };
  if (!sender.hex) throw needs(source, 'an EVM call: it needs an EVM (20-byte) sender');
  const data = encodeFunctionData({
    abi: OFT_ABI,
    functionName: 'send',
    args: [sendParam, { nativeFee: fee, lzTokenFee: 0n }, sender.hex as Hex],
  });
  if (source.kind === 'cosmos') {
    if (!sender.bech32) throw needs(source, 'a Cosmos tx: it needs a bech32 sender');
    const call = (contract: string, input: Hex, value: bigint) =>
      msgCall(sender.bech32!, contract, input, value);
    const msgs: CosmosMsg[] = [];
    if (token && (await facts.erc20Allowance(hop.from, token, sender.hex, oft)) < amountLD)
      msgs.push(
        call(token, encodeFunctionData({ abi: OFT_ABI, functionName: 'approve', args: [oft, amountLD] }), 0n),
      );
    msgs.push(call(oft, data, fee));
    return { msgs };
  }
  if (source.evmChainId === undefined) throw needs(source, 'an EVM tx: it needs an EVM chain id');
  return {
    evmTx: {
      chain_id: String(source.evmChainId),
      to: oft,
      value: String(fee),
      data: data.slice(2),
      required_erc20_approvals: token
        ? [{ token_contract: token, spender: oft, amount: String(amountLD) }]
        : [],
      signer_address: sender.hex,
    },
  };
}
