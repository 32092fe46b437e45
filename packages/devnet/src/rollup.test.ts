import { describe, expect, it } from 'vitest';
import { silentLogger } from 'weft/common/logger.js';
import { createRollup } from './rollup.js';
import type { VmType } from './types.js';
import { vmParts } from './vms.js';

async function run(vm: VmType, blocks: number, txsPerBlock: number) {
  const logger = silentLogger();
  const rollup = await createRollup(
    { vm, chainId: `test-${vm}-1`, seed: 'rollup-test', accounts: 6, blockTimeMs: 1000, logger },
    (base) => vmParts(vm, { ...base, seed: 'rollup-test', logger }),
  );
  const types = new Map<string, number>();
  const failures: string[] = [];
  for (let i = 0; i < blocks; i += 1) {
    await rollup.traffic.fill(txsPerBlock);
    const record = await rollup.chain.produceBlock();
    rollup.traffic.observe(record);
    for (const tx of record.txs) {
      // Only the generator's deliberate failures may fail: insufficient funds (sdk 5, or the ERC20's
      // revert on the EVM), out of gas (sdk 11) and the reverting nested call.
      const deliberate =
        (tx.result.codespace === 'sdk' && [5, 11].includes(tx.result.code)) ||
        (tx.result.codespace === 'evm' && /exceeds balance|nester failed/.test(tx.result.log));
      if (tx.result.code !== 0 && !deliberate) {
        failures.push(`${tx.result.codespace}/${tx.result.code}: ${tx.result.log}`);
      }
      for (const e of tx.result.events) {
        const tag = e.type === 'move' ? e.attributes?.find((a) => a.key === 'type_tag')?.value : undefined;
        const action = e.type === 'wasm' ? e.attributes?.find((a) => a.key === 'action')?.value : undefined;
        const key = tag ?? (action ? `wasm:${action}` : e.type);
        types.set(key, (types.get(key) ?? 0) + 1);
      }
    }
  }
  return { rollup, types, failures };
}

describe('rollup traffic', () => {
  it('runs the Move NFT lifecycle and ICS-721 receives without unexpected failures', async () => {
    const { types, failures } = await run('move', 40, 12);
    expect(failures).toEqual([]);
    for (const tag of [
      '0x1::collection::CreateCollectionEvent',
      '0x1::collection::MintEvent',
      '0x1::object::TransferEvent',
      '0x1::collection::BurnEvent',
      '0x1::nft::MutationEvent',
      'recv_packet',
    ]) {
      expect(types.get(tag), tag).toBeGreaterThan(0);
    }
  });

  it('runs the cw721 lifecycle and ICS-721 receives without unexpected failures', async () => {
    const { types, failures } = await run('wasm', 40, 12);
    expect(failures).toEqual([]);
    for (const key of [
      'instantiate',
      'wasm:mint',
      'wasm:transfer_nft',
      'wasm:send_nft',
      'wasm:burn',
      'recv_packet',
    ]) {
      expect(types.get(key), key).toBeGreaterThan(0);
    }
  });
});

describe('EVM rollup traffic', () => {
  it('deploys contracts and runs token, NFT and nested-call traffic without unexpected failures', async () => {
    const { rollup, types, failures } = await run('evm', 40, 12);
    expect(failures).toEqual([]);
    for (const key of ['contract_created', 'call', 'evm']) expect(types.get(key), key).toBeGreaterThan(0);
    const evmBlocks = Array.from({ length: 40 }, (_, i) => rollup.chain.getBlock(i + 1)!.evm!);
    const receipts = evmBlocks.flatMap((b) => b.receipts);
    const traces = evmBlocks.flatMap((b) => b.traces);
    expect(receipts.length).toBeGreaterThan(200);
    expect(receipts.some((r) => r.status === '0x0')).toBe(true);
    expect(traces.some((t) => JSON.stringify(t.result).includes('DELEGATECALL'))).toBe(true);
  });
});
