import { encodeDeployData, encodeFunctionData, getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { toBech32 } from '../../chain/address.js';
import { encodeAny } from '../../chain/registry.js';
import { createGasMeter } from '../gas.js';
import { createStateStore } from '../state/store.js';
import type { ChainInfo, TxContext } from '../types.js';
import { intrinsicGas } from './executor.js';
import { createEvmModule } from './module.js';

const chain: ChainInfo = { chainId: 'perf-1', vm: 'evm', bech32Prefix: 'init', denom: 'GAS', minGasPrice: 0 };

describe('evm executor', () => {
  it('charges go-ethereum intrinsic gas', () => {
    expect(intrinsicGas({ data: new Uint8Array(0), isCreate: false })).toBe(21_000n);
    expect(intrinsicGas({ data: Uint8Array.of(0, 1, 2), isCreate: false })).toBe(21_000n + 4n + 32n);
    // 53000 + 64 zero bytes + 2 words of init code.
    expect(intrinsicGas({ data: new Uint8Array(64), isCreate: true })).toBe(53_000n + 256n + 4n);
    expect(
      intrinsicGas({
        data: new Uint8Array(0),
        isCreate: false,
        accessList: [{ address: new Uint8Array(20), storageKeys: [new Uint8Array(32), new Uint8Array(32)] }],
      }),
    ).toBe(21_000n + 2_400n + 3_800n);
  });

  it('runs ERC20 transfers with their fee payment well above 500 tx/s', async () => {
    const store = createStateStore();
    const evm = await createEvmModule({ chain });
    const block = { chain, height: 1, time: '', timeMs: 1_767_225_600_000, proposerAddress: '', store };
    const alice = toBech32('init', Buffer.alloc(20, 0xa1));
    const collector = toBech32('init', Buffer.alloc(20, 0xfc));
    await evm.genesis({ ...block, height: 0, events: [] });
    await evm.bank.mint({ ...block, events: [] }, alice, [{ denom: 'GAS', amount: '1000000000' }]);
    let n = 0;
    const tx = (): TxContext => {
      n += 1;
      return {
        ...block,
        mode: 'deliver',
        txHash: `TX${n}`,
        txIndex: 0,
        signers: [alice],
        gas: createGasMeter(1_000_000n),
        events: [],
        msgIndex: 0,
      };
    };
    const { abi, bytecode } = evm.artifacts.TestERC20;
    const code = encodeDeployData({
      abi,
      bytecode: `0x${Buffer.from(bytecode).toString('hex')}`,
      args: ['Perf', 'PRF', 18],
    });
    const deploy = tx();
    await evm.execute(
      deploy,
      encodeAny('/minievm.evm.v1.MsgCreate', { sender: alice, code, value: '0', accessList: [] }),
    );
    const token = deploy.events.find((e) => e.type === 'create')!.attributes[0]!.value;
    const call = (input: `0x${string}`) =>
      encodeAny('/minievm.evm.v1.MsgCall', {
        sender: alice,
        contractAddr: token,
        input,
        value: '0',
        accessList: [],
        authList: [],
      });
    await evm.execute(
      tx(),
      call(
        encodeFunctionData({
          abi,
          functionName: 'mint',
          args: [getAddress(`0x${'a1'.repeat(20)}`), 10n ** 24n],
        }),
      ),
    );

    const count = 200;
    const started = performance.now();
    for (let i = 0; i < count; i += 1) {
      const ctx = tx();
      store.checkpoint();
      await evm.bank.send(ctx, alice, collector, [{ denom: 'GAS', amount: '10' }]);
      const recipient = `0x${(i + 1).toString(16).padStart(40, '0')}` as const;
      await evm.execute(
        ctx,
        call(encodeFunctionData({ abi, functionName: 'transfer', args: [recipient, 1n] })),
      );
      store.commit();
      expect(ctx.events.map((e) => e.type).slice(-2)).toEqual(['call', 'evm']);
    }
    const perSecond = (count / (performance.now() - started)) * 1000;
    console.log(`evm: ${perSecond.toFixed(0)} ERC20 transfers/s (each with its fee transfer)`);
    // Loose: the target is well over 500/s; shared CI machines get slack.
    expect(perSecond).toBeGreaterThan(150);
    expect(store.commitBlock(1)).toBeTruthy();
  });
});
