import { encodeDeployData, encodeFunctionData, getAddress } from 'viem';
import { toBech32 } from 'weft/chain/address.js';
import { encodeAny } from 'weft/chain/registry.js';
import { createEvmModule } from '../evm/module.js';
import { createGasMeter } from '../gas.js';
import { createStateStore } from '../state/store.js';
import type { ChainInfo, TxContext } from '../types.js';

export const FEE_DENOM = 'GAS';
export const FEE_PER_TRANSFER = 10n;

/**
 * The EVM module alone over a state store, with a TestERC20 deployed and minted to one holder: each
 * `transfer(i)` is one deliver-mode tx that pays its fee with a bank send and moves 1 token to the
 * i-th recipient, as a block's ERC20 transfers run. For the executor's test and benchmark.
 */
export async function createErc20Transfers() {
  const chain: ChainInfo = {
    chainId: 'erc20-1',
    vm: 'evm',
    bech32Prefix: 'init',
    denom: FEE_DENOM,
    minGasPrice: 0,
  };
  const store = createStateStore();
  const evm = await createEvmModule({ chain });
  const block = { chain, height: 1, time: '', timeMs: 1_767_225_600_000, proposerAddress: '', store };
  const holder = toBech32('init', Buffer.alloc(20, 0xa1));
  const holderHex = getAddress(`0x${'a1'.repeat(20)}`);
  const collector = toBech32('init', Buffer.alloc(20, 0xfc));
  await evm.genesis({ ...block, height: 0, events: [] });
  await evm.bank.mint({ ...block, events: [] }, holder, [{ denom: FEE_DENOM, amount: '1000000000' }]);

  let n = 0;
  const tx = (): TxContext => {
    n += 1;
    return {
      ...block,
      mode: 'deliver',
      txHash: `TX${n}`,
      txIndex: 0,
      signers: [holder],
      gas: createGasMeter(1_000_000n),
      events: [],
      msgIndex: 0,
    };
  };
  const { abi, bytecode } = evm.artifacts.TestERC20;
  const deploy = tx();
  await evm.execute(
    deploy,
    encodeAny('/minievm.evm.v1.MsgCreate', {
      sender: holder,
      code: encodeDeployData({
        abi,
        bytecode: `0x${Buffer.from(bytecode).toString('hex')}`,
        args: ['Transfers', 'TRF', 18],
      }),
      value: '0',
      accessList: [],
    }),
  );
  const token = deploy.events.find((e) => e.type === 'create')!.attributes[0]!.value;
  const call = (input: `0x${string}`) =>
    encodeAny('/minievm.evm.v1.MsgCall', {
      sender: holder,
      contractAddr: token,
      input,
      value: '0',
      accessList: [],
      authList: [],
    });
  await evm.execute(
    tx(),
    call(encodeFunctionData({ abi, functionName: 'mint', args: [holderHex, 10n ** 24n] })),
  );

  const recipient = (i: number) => getAddress(`0x${(i + 1).toString(16).padStart(40, '0')}`);
  return {
    store,
    evm,
    token,
    holder,
    holderHex,
    collector,
    recipient,
    /** One tx: the fee to the collector, then `transfer(recipient(i), 1)`; committed. */
    async transfer(i: number): Promise<TxContext> {
      const ctx = tx();
      store.checkpoint();
      await evm.bank.send(ctx, holder, collector, [
        { denom: FEE_DENOM, amount: FEE_PER_TRANSFER.toString() },
      ]);
      await evm.execute(
        ctx,
        call(encodeFunctionData({ abi, functionName: 'transfer', args: [recipient(i), 1n] })),
      );
      store.commit();
      return ctx;
    },
  };
}
