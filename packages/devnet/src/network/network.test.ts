import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Devnet } from '../devnet.js';
import { event } from '../events.js';
import type { ChainJson } from '../registry/types.js';
import { testDevnet } from '../test-support/devnet.js';
import type { NetworkModule } from './modules.js';
import type { NetworkService } from './services.js';

/**
 * How the network's parts plug in: a module added to the L1 only (a genesis step and an EndBlock event),
 * and a service that registers a relayer with the control surface, contributes to the registry and acts
 * after every step. And the rollups of the full network are the very chains of the rollups-only devnet.
 */

const dir = mkdtempSync(join(tmpdir(), 'weft-network-'));
const open: Devnet[] = [];
afterAll(async () => {
  await Promise.all(open.map((d) => d.close()));
  rmSync(dir, { recursive: true, force: true });
});

const probe: NetworkModule = {
  name: 'probe',
  appliesTo: (plan) => plan.role === 'l1',
  parts: (base) => ({
    modules: [],
    plans: [],
    genesis: async (ctx) =>
      base.bank.mint(ctx, base.accounts[0]!.address, [{ denom: 'uprobe', amount: '1000' }]),
    hooks: [
      { endBlock: (ctx) => [event('probe', { height: String(ctx.height), chain: base.plan.chainName })] },
    ],
  }),
};

/** A relayer that counts the network steps it saw while not paused. */
function stepCounter(): NetworkService & { seen: number } {
  const counter = {
    name: 'counter',
    seen: 0,
    appliesTo: (chains: readonly { role: string }[]) => chains.some((c) => c.role === 'l1'),
    start(ctx: Parameters<NetworkService['start']>[0]) {
      let paused = false;
      let delayMs = 0;
      ctx.control.registerRelayer({
        name: 'counter',
        pause: () => {
          paused = true;
        },
        resume: () => {
          paused = false;
        },
        setDelay: (ms) => {
          delayMs = ms;
        },
        status: () => ({ paused, delayMs }),
      });
      const rollup = ctx.chains.find((c) => c.role === 'rollup')!;
      ctx.registry.contribute({
        chainId: rollup.chain.info.chainId,
        opBridgeId: '1',
        opDenoms: ['uinit'],
        executorUri: 'http://127.0.0.1:1',
      });
      return {
        afterStep: async () => {
          if (!paused) counter.seen += 1;
        },
        manifest: () => ({ url: 'http://127.0.0.1:1' }),
      };
    },
  };
  return counter;
}

async function control(devnet: Devnet, method: string, params: unknown[]) {
  const response = await fetch(devnet.control.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return ((await response.json()) as { result: unknown }).result;
}

describe('network parts', () => {
  it('adds a module to the L1 only, and runs a service driven through the control surface', async () => {
    const counter = stepCounter();
    const devnet = await testDevnet({
      seed: 'parts',
      vms: ['move'],
      network: 'full',
      accounts: 2,
      txsPerBlock: 0,
      modules: [probe],
      services: [counter],
      registryDir: join(dir, 'registry'),
    });
    open.push(devnet);
    const l1 = devnet.l1!;
    const rollup = devnet.rollups[0]!;
    expect(await l1.chain.balances(l1.accounts[0]!.address)).toContainEqual({
      denom: 'uprobe',
      amount: '1000',
    });
    expect(await rollup.chain.balances(rollup.accounts[0]!.address)).not.toContainEqual(
      expect.objectContaining({ denom: 'uprobe' }),
    );

    await devnet.fastForward(2);
    const endEvents = (height: number, chain = l1.chain) =>
      (chain.getBlock(height)!.blockResults.finalize_block_events as Array<{ type: string }>).map(
        (e) => e.type,
      );
    expect(endEvents(2)).toContain('probe');
    expect(endEvents(2, rollup.chain)).not.toContain('probe');
    expect(counter.seen).toBe(2);

    expect(await control(devnet, 'weft_pauseRelayer', ['counter'])).toMatchObject({ paused: true });
    await devnet.step();
    expect(counter.seen).toBe(2);
    await control(devnet, 'weft_resumeRelayer', ['counter']);
    await devnet.step();
    expect(counter.seen).toBe(3);

    expect(devnet.manifest().services).toEqual({ counter: { url: 'http://127.0.0.1:1' } });
    const entry = JSON.parse(
      readFileSync(join(dir, 'registry', 'weftmove', 'chain.json'), 'utf8'),
    ) as ChainJson;
    expect(entry.metadata).toMatchObject({
      op_bridge_id: '1',
      op_denoms: ['uinit'],
      executor_uri: 'http://127.0.0.1:1',
    });
  });

  it('builds the rollups of the full network, before its modules, as the rollups-only devnet', async () => {
    // The rollups-only devnet runs with the registered modules: none applies to it, so it stays as it was.
    const options = { seed: 'same', vms: ['evm', 'move'] as const, accounts: 3, txsPerBlock: 6 };
    const alone = await testDevnet({ ...options, vms: [...options.vms] });
    const full = await testDevnet({
      ...options,
      vms: [...options.vms],
      network: 'full',
      modules: [],
      services: [],
    });
    open.push(alone, full);
    await alone.fastForward(6);
    await full.fastForward(6);
    const hashes = (d: Devnet) => d.rollups.map((c) => c.chain.getBlock(6)!.block.block_id);
    expect(hashes(full)).toEqual(hashes(alone));
    expect(full.all.map((c) => c.role)).toEqual([
      'rollup',
      'rollup',
      'l1',
      'external-cosmos',
      'external-evm',
    ]);
    expect(alone.all.map((c) => c.role)).toEqual(['rollup', 'rollup']);
  });

  it('keeps every chain of the full network across a restart with a state dir', async () => {
    const stateDir = join(dir, 'chains');
    const options = {
      seed: 'restart',
      vms: ['move' as const],
      network: 'full' as const,
      accounts: 3,
      txsPerBlock: 5,
    };
    const first = await testDevnet({ ...options, stateDir });
    await first.fastForward(4);
    const hashes = (d: Devnet) => d.all.map((c) => c.chain.getBlock(4)!.block.block_id);
    const before = hashes(first);
    await first.close();
    const second = await testDevnet({ ...options, stateDir });
    open.push(second);
    expect(second.all.map((c) => c.chain.latestHeight())).toEqual([4, 4, 4, 4]);
    expect(hashes(second)).toEqual(before);
    const appHashes = second.all.map((c) => c.chain.getBlock(4)!.appHash);
    await second.fastForward(2);
    for (const [i, c] of second.all.entries()) {
      const header = c.chain.getBlock(5)!.block.block.header;
      expect(header.last_block_id.hash).toBe((before[i] as { hash: string }).hash);
      expect(header.app_hash).toBe(appHashes[i]);
      expect(c.chain.getBlock(6)!.txs.length).toBeGreaterThan(0);
    }
  });
});
