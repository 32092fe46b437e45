import { createPublicClient, type Hex, http, parseAbi } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OMNI_MOVE_DENOM } from 'weft-devnet/omnichain/move-module.js';
import { GENESIS_OFT_SD } from 'weft-devnet/omnichain/network.js';
import { type OmnichainTestNet, omnichainNet } from 'weft-devnet/test-support/omnichain.js';
import { until } from 'weft-devnet/test-support/until.js';

/**
 * The seeded traffic's interchain share: with traffic on, every member sends OFT to the others (some
 * sends fail on purpose); once it stops and the relayer drains, every packet is delivered and the OFT's
 * supply across the three chains is what genesis minted.
 */

const ABI = parseAbi(['function totalSupply() view returns (uint256)']);
let net: OmnichainTestNet;

beforeAll(async () => {
  net = await omnichainNet({
    seed: 'omnichain-traffic',
    txsPerBlock: 6,
    chains: [
      { chainId: 'weft-move-1', vm: 'move' },
      { chainId: 'weft-evm-1', vm: 'evm' },
      { chainId: 'weft-evm-2', vm: 'evm' },
    ],
  });
}, 120_000);

afterAll(async () => {
  await net?.close();
});

describe('omnichain traffic', () => {
  it('sends OFT between every pair, fails some sends on purpose, and conserves the supply', async () => {
    const [move, ...evms] = net.chains;
    await until('30 blocks', () => move!.chain.latestHeight() >= 30, 60_000);
    net.setTraffic(0);
    // Drained: every packet delivered, and no new one over several polls of the relayer.
    let seen = -1;
    const packets = await until(
      'a drained relayer',
      async () => {
        const height = move!.chain.latestHeight();
        await until('five more blocks', () => move!.chain.latestHeight() >= height + 5);
        const all = net.relayer.packets();
        const drained = all.length === seen && all.every((p) => p.state === 'delivered');
        seen = all.length;
        return drained ? all : undefined;
      },
      60_000,
    );
    const pairs = new Set(packets.map((p) => `${p.packet.srcEid}>${p.packet.dstEid}`));
    expect(pairs.size).toBe(6);

    let failedSends = 0;
    for (const c of net.chains) {
      for (let h = 1; h <= c.chain.latestHeight(); h += 1) {
        for (const tx of c.chain.getBlock(h)!.txs) {
          if (tx.result.code !== 0 && /Slippage|VM aborted/.test(JSON.stringify(tx.result))) failedSends += 1;
        }
      }
    }
    expect(failedSends).toBeGreaterThan(0);

    const supplyNow = async () => {
      let supply = 0n;
      for (const c of evms) {
        const client = createPublicClient({ transport: http(c!.servers.urls.jsonRpc!) });
        supply +=
          (await client.readContract({ address: net.oft as Hex, abi: ABI, functionName: 'totalSupply' })) /
          10n ** 12n;
      }
      const response = await fetch(
        `${move!.servers.urls.rest}/cosmos/bank/v1beta1/supply/by_denom?denom=${encodeURIComponent(OMNI_MOVE_DENOM)}`,
      );
      return supply + BigInt(((await response.json()) as { amount: { amount: string } }).amount.amount);
    };
    // A send the relayer had not read yet when it looked drained (its passes can fall blocks behind on a
    // loaded machine) is burnt on its source and not yet minted: the supply is waited for, then asserted.
    const genesis = 3n * BigInt(move!.accounts.length) * GENESIS_OFT_SD;
    await until('the supply minted at genesis', async () => (await supplyNow()) === genesis, 60_000).catch(
      () => undefined,
    );
    expect(await supplyNow()).toBe(genesis);
  });
});
