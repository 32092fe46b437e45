import { encodeFunctionData, type Hex, pad } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { bcs } from 'weft/chain/bcs.js';
import { encodeAny } from 'weft/chain/registry.js';
import { contractArtifacts } from '../evm/contracts.js';
import type { DevAccount } from '../keys.js';
import { MSG_EXECUTE } from '../move/module.js';
import {
  EVM_FEES,
  GENESIS_OFT_SD,
  MOVE_FEES,
  MOVE_PACKAGE,
  type OmnichainSetup,
} from '../omnichain/network.js';
import type { PlannedTx, TrafficPlan } from './generator.js';

/** OFT message bytes (recipient ‖ amount), what the fee is quoted on. */
const MESSAGE_BYTES = 40n;
/** Largest send, in shared decimals (5 tokens): each account's genesis OFT lasts for hundreds of sends. */
const MAX_SEND_SD = 5_000_000;
const u32 = (v: number) => Uint8Array.of(v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff, (v >>> 24) & 0xff);

/**
 * Interchain traffic of the omnichain bridge: OFT sends from this chain to the other members, to the
 * sender's own address there; one in ten asks for more than it sends and fails (the OFT's slippage check).
 */
function omnichainPlan(
  setup: OmnichainSetup,
  accounts: readonly DevAccount[],
  build: (signer: DevAccount, dstEid: number, amountSD: bigint, minSD: bigint, fail: boolean) => PlannedTx,
): TrafficPlan {
  const budget = new Map(accounts.map((a) => [a.address, GENESIS_OFT_SD]));
  const peers = setup.members.filter((m) => m.eid !== setup.self.eid);
  return {
    name: 'omnichain-oft',
    interchain: true,
    weight: 2,
    next({ rng }) {
      if (peers.length === 0) return undefined;
      const signer = rng.pick(accounts);
      const amountSD = BigInt(rng.int(1, MAX_SEND_SD));
      const left = budget.get(signer.address) ?? 0n;
      if (left < amountSD) return undefined;
      const fail = rng.chance(0.1);
      if (!fail) budget.set(signer.address, left - amountSD);
      return build(signer, rng.pick(peers).eid, amountSD, fail ? amountSD + 1n : amountSD, fail);
    },
  };
}

/** OFT sends on an EVM chain: `send` with the quoted fee as value, signed as Ethereum txs. */
export function omnichainEvmPlan(options: {
  setup: OmnichainSetup;
  accounts: readonly DevAccount[];
  oft: Hex;
  evmChainId: number;
  gasPrice: bigint;
}): TrafficPlan {
  const abi = contractArtifacts().OmniOFT.abi;
  const fee = EVM_FEES.base + EVM_FEES.perByte * MESSAGE_BYTES;
  const LD = 10n ** 12n;
  return omnichainPlan(options.setup, options.accounts, (signer, dstEid, amountSD, minSD, fail) => ({
    kind: 'eth',
    signer,
    expectFailure: fail,
    async build(nonce) {
      const data = encodeFunctionData({
        abi,
        functionName: 'send',
        args: [
          {
            dstEid,
            to: pad(signer.hexAddress as Hex, { size: 32 }),
            amountLD: amountSD * LD,
            minAmountLD: minSD * LD,
            extraOptions: '0x',
            composeMsg: '0x',
            oftCmd: '0x',
          },
          { nativeFee: fee, lzTokenFee: 0n },
          signer.hexAddress,
        ],
      } as never);
      const signed = await privateKeyToAccount(signer.privateKey as Hex).signTransaction({
        type: 'eip1559',
        chainId: options.evmChainId,
        nonce: Number(nonce),
        gas: 500_000n,
        maxFeePerGas: options.gasPrice,
        maxPriorityFeePerGas: 0n,
        to: options.oft,
        data,
        value: fee,
      });
      return Buffer.from(signed.slice(2), 'hex');
    },
  }));
}

/** OFT sends on a Move chain: `MsgExecute` of `oft::send` with BCS arguments. */
export function omnichainMovePlan(options: {
  setup: OmnichainSetup;
  accounts: readonly DevAccount[];
}): TrafficPlan {
  const fee = MOVE_FEES.base + MOVE_FEES.perByte * MESSAGE_BYTES;
  const empty = bcs.byteVector(new Uint8Array());
  return omnichainPlan(options.setup, options.accounts, (signer, dstEid, amountSD, minSD, fail) => ({
    kind: 'cosmos',
    signer,
    expectFailure: fail,
    msgs: [
      encodeAny(MSG_EXECUTE, {
        sender: signer.address,
        moduleAddress: `0x${Buffer.from(MOVE_PACKAGE).toString('hex')}`,
        moduleName: 'oft',
        functionName: 'send',
        typeArgs: [],
        args: [
          u32(dstEid),
          bcs.byteVector(Buffer.from(pad(signer.hexAddress as Hex, { size: 32 }).slice(2), 'hex')),
          bcs.u64(amountSD),
          bcs.u64(minSD),
          empty,
          empty,
          empty,
          bcs.u64(fee),
          bcs.u64(0n),
        ],
      }),
    ],
  }));
}
