import { createHash } from 'node:crypto';
import { type Abi, encodeDeployData, encodeFunctionData } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { encodeAny } from 'weft/chain/registry.js';
import { silentLogger } from 'weft/common/logger.js';
import { createBankMsgModule } from '../bank/msg-send.js';
import { createMemoryBlockStore } from '../block-store.js';
import { type Chain, createChain } from '../chain.js';
import type { ContractName } from '../evm/contracts.js';
import { MSG_CALL, MSG_CREATE } from '../evm/eth-tx.js';
import { createEvmModule } from '../evm/module.js';
import { type DevAccount, deriveAccounts, deriveValidatorKey } from '../keys.js';
import type { BlockRecord, CheckTxResult } from '../node.js';
import { createAuth } from '../state/auth.js';
import { createStateStore } from '../state/store.js';
import { signTx } from '../tx/sign.js';
import type { AnyMsg, ChainInfo } from '../types.js';

/**
 * A real chain (the devnet's CheckTx/DeliverTx, ante and blocks) running the EVM module, with funded
 * Ethereum-key accounts and helpers to sign and send txs. For tests and benchmarks.
 */
export async function createEvmTestbed(options: { accounts?: number; seed?: string } = {}) {
  const seed = options.seed ?? 'evm-testbed';
  const prefix = 'init';
  const info: ChainInfo = {
    chainId: 'evm-testbed-1',
    vm: 'evm',
    bech32Prefix: prefix,
    denom: 'GAS',
    minGasPrice: 1e9,
  };
  const moduleAddress = (name: string) =>
    new Uint8Array(createHash('sha256').update(name).digest().subarray(0, 20));
  const store = createStateStore();
  const auth = createAuth({ prefix, moduleAddress });
  const evm = await createEvmModule({ chain: info, auth });
  const accounts = deriveAccounts({ seed, count: options.accounts ?? 4, keyType: 'ethsecp256k1', prefix });
  let chain: Chain | undefined;
  const node = evm.createNode({
    store,
    latestHeight: () => chain!.latestHeight(),
    broadcast: (raw, eth) => chain!.submit(raw, eth),
  });
  chain = await createChain({
    info,
    seed,
    genesisTimeMs: Date.parse('2026-01-01T00:00:00Z'),
    blockTimeMs: 1000,
    store,
    blocks: createMemoryBlockStore(),
    auth,
    bank: evm.bank,
    modules: [createBankMsgModule({ bank: evm.bank, prefix }), evm],
    sequencer: {
      ...deriveValidatorKey(seed, info.chainId),
      moniker: 'sequencer',
    },
    async genesis(ctx) {
      await evm.genesis(ctx);
      for (const account of accounts) {
        auth.ensure(store, account.address);
        await evm.bank.mint(ctx, account.address, [{ denom: info.denom, amount: (10n ** 24n).toString() }]);
      }
      const feeCollector = auth.moduleAddress('fee_collector');
      auth.put(store, feeCollector, {
        ...auth.ensure(store, feeCollector),
        module: { name: 'fee_collector', permissions: [] },
      });
    },
    evm,
    extensions: { evm: node },
    logger: silentLogger(),
  });
  const readyChain = chain;

  // Next sequence per account, counting txs already submitted for the coming block.
  const sequences = new Map<string, bigint>();
  const nextSequence = (signer: DevAccount) => {
    const sequence = sequences.get(signer.address) ?? readyChain.account(signer.address)?.sequence ?? 0n;
    sequences.set(signer.address, sequence + 1n);
    return sequence;
  };

  const gasPrice = BigInt(info.minGasPrice);
  const artifacts = evm.artifacts;

  return {
    info,
    chain: readyChain,
    evm,
    node,
    store,
    auth,
    accounts,
    /** Signs (SIGN_MODE_DIRECT) and submits cosmos msgs. */
    sendCosmos(signer: DevAccount, msgs: AnyMsg[], gasLimit = 1_000_000n): Promise<CheckTxResult> {
      const raw = signTx({
        msgs,
        fee: { amount: [{ denom: info.denom, amount: (gasLimit * gasPrice).toString() }], gasLimit },
        signer,
        chainId: info.chainId,
        accountNumber: readyChain.account(signer.address)!.accountNumber,
        sequence: nextSequence(signer),
      });
      return readyChain.broadcastTx(raw);
    },
    /** Signs an EIP-1559 tx with viem and sends it through `eth_sendRawTransaction`. */
    async sendEth(
      signer: DevAccount,
      request: { to?: `0x${string}`; data: `0x${string}`; gas?: bigint; value?: bigint },
    ): Promise<{ hash: string; serialized: `0x${string}` }> {
      const serialized = await privateKeyToAccount(signer.privateKey as `0x${string}`).signTransaction({
        type: 'eip1559',
        chainId: Number(evm.evmChainId),
        nonce: Number(nextSequence(signer)),
        gas: request.gas ?? 1_000_000n,
        maxFeePerGas: gasPrice,
        maxPriorityFeePerGas: 0n,
        ...(request.to ? { to: request.to } : {}),
        data: request.data,
        value: request.value ?? 0n,
      });
      const hash = await node.sendRawTransaction(Buffer.from(serialized.slice(2), 'hex'));
      return { hash, serialized };
    },
    produce(): Promise<BlockRecord> {
      sequences.clear();
      return readyChain.produceBlock();
    },
    /** A MsgCreate deploying one of the devnet contracts. */
    createMsg(signer: DevAccount, name: ContractName, args: unknown[] = []): AnyMsg {
      const { abi, bytecode } = artifacts[name];
      const code = encodeDeployData({
        abi: abi as Abi,
        bytecode: `0x${Buffer.from(bytecode).toString('hex')}`,
        args,
      });
      return encodeAny(MSG_CREATE, { sender: signer.address, code, value: '0', accessList: [] });
    },
    callMsg(
      signer: DevAccount,
      contract: string,
      name: ContractName,
      fn: string,
      args: unknown[] = [],
    ): AnyMsg {
      const input = encodeFunctionData({ abi: artifacts[name].abi as Abi, functionName: fn, args });
      return encodeAny(MSG_CALL, {
        sender: signer.address,
        contractAddr: contract,
        input,
        value: '0',
        accessList: [],
        authList: [],
      });
    },
  };
}

export type EvmTestbed = Awaited<ReturnType<typeof createEvmTestbed>>;
