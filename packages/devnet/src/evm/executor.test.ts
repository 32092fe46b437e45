import { decodeEventLog, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { createErc20Transfers, FEE_DENOM, FEE_PER_TRANSFER } from '../test-support/erc20-transfers.js';
import { intrinsicGas } from './executor.js';

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

  it('runs ERC20 transfers with their fee payment: each pays the collector and moves one token', async () => {
    // The rate of these transfers is measured by `npm run bench -- evm`.
    const run = await createErc20Transfers();
    const { abi } = run.evm.artifacts.TestERC20;
    const count = 40;
    for (let i = 0; i < count; i += 1) {
      const ctx = await run.transfer(i);
      expect(ctx.events.map((e) => e.type).slice(-2)).toEqual(['call', 'evm']);
      const call = ctx.events.at(-2)!;
      expect(call.attributes.find((a) => a.key === 'ret')!.value).toBe(`0x${'0'.repeat(63)}1`);
      const logs = ctx.events.at(-1)!.attributes.filter((a) => a.key === 'log');
      expect(logs).toHaveLength(1);
      const log = JSON.parse(logs[0]!.value) as { address: string; topics: Hex[]; data: Hex };
      expect(log.address.toLowerCase()).toBe(run.token.toLowerCase());
      expect(decodeEventLog({ abi, topics: log.topics as [Hex, ...Hex[]], data: log.data })).toMatchObject({
        eventName: 'Transfer',
        args: { from: run.holderHex, to: run.recipient(i), value: 1n },
      });
    }
    expect(run.evm.bank.balance(run.store, run.collector, FEE_DENOM)).toBe(FEE_PER_TRANSFER * BigInt(count));
    expect(run.store.commitBlock(1)).toBeTruthy();
  });
});
