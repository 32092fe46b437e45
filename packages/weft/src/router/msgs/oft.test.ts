import { AminoTypes } from '@cosmjs/stargate';
import { aminoConverters } from '@initia/amino-converter';
import { decodeFunctionData, type Hex, pad, parseAbi } from 'viem';
import { describe, expect, it } from 'vitest';
import { toBech32 } from '../../chain/address.js';
import type { ChainFacts } from '../graph/plan.js';
import type { OmnichainEndpoint, RouterChain } from '../registry/types.js';
import { chainAddress } from './addresses.js';
import { type OftHop, oftTx } from './oft.js';

/**
 * The source tx of an OFT send by the kind of its source chain: `MsgCall`s signed by the bech32 account on
 * an Initia chain with an EVM (wallets find an `evm_tx`'s chain by `chain_id` and sign it only where
 * `chain_type` is "evm"), an `evm_tx` on an EVM-only chain, and an adapter's approval on either.
 */

const ABI = parseAbi([
  'struct SendParam { uint32 dstEid; bytes32 to; uint256 amountLD; uint256 minAmountLD; bytes extraOptions; bytes composeMsg; bytes oftCmd; }',
  'struct MessagingFee { uint256 nativeFee; uint256 lzTokenFee; }',
  'function send(SendParam sendParam, MessagingFee fee, address refundAddress) payable',
  'function approve(address spender, uint256 amount) returns (bool)',
]);
const aminoTypes = new AminoTypes(aminoConverters);
const OFT = '0x1111111111111111111111111111111111111111';
const TOKEN = '0x2222222222222222222222222222222222222222';
const FEE = 123_456n;

const chain = (over: Partial<RouterChain>): RouterChain => ({
  chainId: 'rollup-1',
  chainName: 'rollup',
  prettyName: 'Rollup',
  kind: 'cosmos',
  bech32Prefix: 'init',
  isL1: false,
  isTestnet: true,
  opDenoms: [],
  ibcChannels: [],
  nftChannels: [],
  feeAssets: [],
  keyAlgos: [],
  ...over,
});
const rollup = chain({ minitia: 'minievm', evmChainId: 777 });
const ethereum = chain({ chainId: '31337', kind: 'evm', evmChainId: 31337 });

const endpoint = (denom: string): OmnichainEndpoint => ({
  eid: 1,
  kind: 'evm',
  endpoint: OFT,
  oft: OFT,
  denom,
  decimals: 18,
  sharedDecimals: 6,
  peers: [2],
});
const hop = (from: RouterChain, denom = `evm/${OFT.slice(2)}`): OftHop => ({
  kind: 'oft',
  from: from.chainId,
  to: 'peer-1',
  denomIn: denom,
  denomOut: denom,
  source: endpoint(denom),
  destination: { ...endpoint(denom), eid: 2, peers: [1] },
});

/** Facts that quote FEE and answer `allowance` with the given amount, counting the reads. */
function facts(allowance = 0n) {
  const reads: string[] = [];
  const answer: ChainFacts = {
    withdrawalSeconds: async () => 0,
    omnichainFee: async () => FEE,
    chainTimeMs: async () => undefined,
    erc20Of: async () => TOKEN,
    erc20Allowance: async (chainId, token, owner, spender) => {
      reads.push(`${chainId} ${token} ${owner} ${spender}`);
      return allowance;
    },
  };
  return { facts: answer, reads };
}

const holder = Uint8Array.from({ length: 20 }, (_, i) => i + 1);
const holderHex = `0x${Buffer.from(holder).toString('hex')}`;
const send = (source: RouterChain) => ({
  sender: chainAddress(source, holderHex),
  recipient: chainAddress(ethereum, '0x00000000000000000000000000000000000000aa'),
  amountLD: 5n * 10n ** 18n,
  minAmountLD: 4n * 10n ** 18n,
});

const decodeMsg = (msg: { msg: string; msg_type_url: string }) =>
  aminoTypes.fromAmino({ type: aminoConverters[msg.msg_type_url]!.aminoType, value: JSON.parse(msg.msg) });

describe('the source tx of an OFT send', () => {
  it('is a MsgCall of send with the fee as value, signed by the bech32 account, on a minievm rollup', async () => {
    const { facts: f, reads } = facts();
    const tx = await oftTx(f, rollup, hop(rollup), send(rollup));
    if (!('msgs' in tx)) throw new Error('expected Cosmos msgs');
    expect(tx.msgs.map((m) => m.msg_type_url)).toEqual(['/minievm.evm.v1.MsgCall']);
    const sender = send(rollup).sender;
    // The amino JSON InterwovenKit decodes with `fromAmino`.
    expect(JSON.parse(tx.msgs[0]!.msg)).toMatchObject({
      sender: sender.bech32,
      contract_addr: OFT,
      value: String(FEE),
    });
    const { value } = decodeMsg(tx.msgs[0]!);
    expect(value).toMatchObject({ sender: sender.bech32, contractAddr: OFT, value: String(FEE) });
    const call = decodeFunctionData({ abi: ABI, data: value.input as Hex });
    expect(call.functionName).toBe('send');
    expect(call.args).toEqual([
      {
        dstEid: 2,
        to: pad('0x00000000000000000000000000000000000000aa', { size: 32 }),
        amountLD: 5n * 10n ** 18n,
        minAmountLD: 4n * 10n ** 18n,
        extraOptions: '0x',
        composeMsg: '0x',
        oftCmd: '0x',
      },
      { nativeFee: FEE, lzTokenFee: 0n },
      sender.hex,
    ]);
    // A native OFT burns its own token: no allowance is read, none approved.
    expect(reads).toEqual([]);
  });

  it("approves an adapter's token first when the allowance falls short, on a minievm rollup", async () => {
    const adapter = hop(rollup, `evm/${TOKEN.slice(2)}`);
    const short = await oftTx(facts(10n ** 18n).facts, rollup, adapter, send(rollup));
    if (!('msgs' in short)) throw new Error('expected Cosmos msgs');
    const [approve, sent] = short.msgs.map(decodeMsg);
    expect(approve!.value).toMatchObject({ contractAddr: TOKEN, value: '0' });
    expect(decodeFunctionData({ abi: ABI, data: approve!.value.input as Hex })).toEqual({
      functionName: 'approve',
      args: [OFT, 5n * 10n ** 18n],
    });
    expect(sent!.value).toMatchObject({ contractAddr: OFT, value: String(FEE) });
    const covered = await oftTx(facts(5n * 10n ** 18n).facts, rollup, adapter, send(rollup));
    expect('msgs' in covered && covered.msgs.map(decodeMsg).map((m) => m.value.contractAddr)).toEqual([OFT]);
  });

  it('is an evm_tx with the EVM chain id on an EVM-only chain, an adapter in required_erc20_approvals', async () => {
    const tx = await oftTx(facts().facts, ethereum, hop(ethereum), send(ethereum));
    if (!('evmTx' in tx)) throw new Error('expected an evm_tx');
    expect(tx.evmTx).toMatchObject({
      chain_id: '31337',
      to: OFT,
      value: String(FEE),
      required_erc20_approvals: [],
      signer_address: send(ethereum).sender.hex,
    });
    expect(tx.evmTx.data).toMatch(/^[0-9a-f]+$/);
    const adapter = await oftTx(
      facts().facts,
      ethereum,
      hop(ethereum, `evm/${TOKEN.slice(2)}`),
      send(ethereum),
    );
    expect('evmTx' in adapter && adapter.evmTx.required_erc20_approvals).toEqual([
      { token_contract: TOKEN, spender: OFT, amount: String(5n * 10n ** 18n) },
    ]);
  });

  it('refuses a minievm sender without a 20-byte account', async () => {
    const long = chainAddress(rollup, toBech32('init', new Uint8Array(32).fill(7)));
    await expect(
      oftTx(facts().facts, rollup, hop(rollup), { ...send(rollup), sender: long }),
    ).rejects.toThrow(/sends OFT as an EVM call/);
  });
});
