import { encodeDeployData, encodeFunctionData, type Hex, hexToBytes, toHex } from 'viem';
import { STD_ADDRESS } from '../evm/erc20-bank.js';
import { type EvmKeeper, execContextOf } from '../evm/keeper.js';
import type { EvmModule } from '../evm/module.js';
import type { DevAccount } from '../keys.js';
import type { TrafficPlan } from '../traffic/generator.js';
import { omnichainEvmPlan } from '../traffic/omnichain.js';
import type { AbciEvent, BlockContext } from '../types.js';
import {
  ENDPOINT_SALT,
  EVM_FEES,
  evmAddresses,
  GENESIS_OFT_SD,
  OFT_NAME,
  OFT_SALT,
  OFT_SYMBOL,
  type OmnichainSetup,
  omnichainOperator,
  peerOf,
  SHARED_DECIMALS,
} from './network.js';

/** Gas the operator starts with on each EVM chain (it pays for every verify and delivery). */
const OPERATOR_FUNDING = 10n ** 24n;
const GENESIS_GAS = 30_000_000n;

export interface OmnichainEvm {
  endpoint: Hex;
  oft: Hex;
  operator: DevAccount;
  /** OFT sends of the seeded traffic. */
  trafficPlan(accounts: readonly DevAccount[], gasPrice: bigint): TrafficPlan;
  /** Deploys the endpoint and the OFT, sets roles, fees and peers, and funds `holders` with OFT. */
  genesis(ctx: BlockContext & { events: AbciEvent[] }, holders: readonly DevAccount[]): Promise<void>;
}

/** The omnichain contracts of one EVM chain, deployed at genesis at the same address on every chain. */
export function createOmnichainEvm(evm: EvmModule, setup: OmnichainSetup): OmnichainEvm {
  const operator = omnichainOperator(setup.seed, 'ethsecp256k1', evm.txParams.bech32Prefix);
  const owner = operator.hexAddress as Hex;
  const { endpoint, oft } = evmAddresses(owner);
  const { artifacts } = evm;

  const run = async (
    keeper: EvmKeeper,
    ctx: BlockContext,
    call: { caller: Hex; to?: Hex; data: Hex; salt?: Hex },
  ) => {
    const outcome = await keeper.run(execContextOf(ctx), {
      caller: hexToBytes(call.caller),
      ...(call.to ? { to: hexToBytes(call.to) } : {}),
      data: hexToBytes(call.data),
      ...(call.salt ? { salt: hexToBytes(call.salt) } : {}),
      gasLimit: GENESIS_GAS,
    });
    if (outcome.error) throw new Error(`omnichain genesis: ${JSON.stringify(outcome.error)}`);
    return outcome;
  };
  const call = (
    ctx: BlockContext,
    to: Hex,
    abi: typeof artifacts.OmniOFT.abi,
    functionName: string,
    args: unknown[],
  ) =>
    run(evm.keeper, ctx, {
      caller: owner,
      to,
      data: encodeFunctionData({ abi, functionName, args } as never),
    });

  return {
    endpoint,
    oft,
    operator,
    trafficPlan: (accounts, gasPrice) =>
      omnichainEvmPlan({ setup, accounts, oft, evmChainId: Number(evm.evmChainId), gasPrice }),
    async genesis(ctx, holders) {
      const std = toHex(STD_ADDRESS);
      const deployed = await run(evm.keeper, ctx, {
        caller: std,
        salt: ENDPOINT_SALT,
        data: encodeDeployData({
          abi: artifacts.OmniEndpoint.abi,
          bytecode: toHex(artifacts.OmniEndpoint.bytecode),
          args: [owner],
        }),
      });
      const token = await run(evm.keeper, ctx, {
        caller: std,
        salt: OFT_SALT,
        data: encodeDeployData({
          abi: artifacts.OmniOFT.abi,
          bytecode: toHex(artifacts.OmniOFT.bytecode),
          args: [OFT_NAME, OFT_SYMBOL, endpoint, owner],
        }),
      });
      if (
        toHex(deployed.createdAddress!) !== endpoint.toLowerCase() ||
        toHex(token.createdAddress!) !== oft.toLowerCase()
      )
        throw new Error('omnichain genesis: contracts not at their computed addresses');
      await evm.bank.mint(ctx, operator.address, [
        { denom: evm.txParams.feeDenom, amount: OPERATOR_FUNDING.toString() },
      ]);
      await call(ctx, endpoint, artifacts.OmniEndpoint.abi, 'initialize', [
        setup.self.eid,
        owner,
        owner,
        EVM_FEES.base,
        EVM_FEES.perByte,
      ]);
      for (const member of setup.members) {
        if (member.eid === setup.self.eid) continue;
        await call(ctx, oft, artifacts.OmniOFT.abi, 'setPeer', [member.eid, peerOf(member, setup.seed)]);
      }
      const amount = GENESIS_OFT_SD * 10n ** BigInt(18 - SHARED_DECIMALS);
      for (const holder of holders)
        await call(ctx, oft, artifacts.OmniOFT.abi, 'mint', [holder.hexAddress, amount]);
    },
  };
}
