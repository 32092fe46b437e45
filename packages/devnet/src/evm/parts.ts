import type { VmParts } from '../dev-chain.js';
import { createOmnichainEvm } from '../omnichain/evm-genesis.js';
import { ethTransferPlan } from '../traffic/eth-transfer.js';
import { evmTrafficPlans } from '../traffic/evm.js';
import type { VmPartsInput } from '../vms.js';
import { gasPriceWei } from './fee-units.js';
import { createEvmModule } from './module.js';

/**
 * The EVM rollup: minievm's module, its ERC20-backed bank, the JSON-RPC backend and EVM traffic. An
 * Ethereum chain (`ethOnly`) runs the same EVM with Ethereum txs only: value transfers and contract calls.
 */
export async function evmParts(input: VmPartsInput, options: { ethOnly?: boolean } = {}): Promise<VmParts> {
  const { info, store, auth, accounts } = input;
  const evm = await createEvmModule({ chain: info, auth });
  const omnichain = input.omnichain ? createOmnichainEvm(evm, input.omnichain) : undefined;
  const node = evm.createNode({
    store,
    latestHeight: () => input.chain().latestHeight(),
    broadcast: (raw, eth) => input.chain().submit(raw, eth),
  });
  const traffic = {
    accounts,
    artifacts: evm.artifacts,
    evmChainId: Number(evm.evmChainId),
    gasPrice: gasPriceWei(info.minGasPrice, evm.feeDecimals),
  };
  return {
    bank: evm.bank,
    modules: [evm],
    async genesis(ctx) {
      await evm.genesis(ctx);
      await omnichain?.genesis(ctx, accounts);
    },
    evm,
    extensions: { evm: node },
    plans: [
      ...(options.ethOnly
        ? [ethTransferPlan(traffic), ...evmTrafficPlans({ ...traffic, ethOnly: true })]
        : evmTrafficPlans(traffic)),
      ...(omnichain ? [omnichain.trafficPlan(accounts, traffic.gasPrice)] : []),
    ],
    sendEthTx: (raw) => node.sendRawTransaction(raw),
  };
}
