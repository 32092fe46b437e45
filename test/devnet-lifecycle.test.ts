import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from 'weft/common/logger.js';
import { type Devnet, type DevnetOptions, startDevnet } from 'weft-devnet/devnet.js';

const open: Devnet[] = [];
const dirs: string[] = [];

async function devnet(overrides: Partial<DevnetOptions> = {}): Promise<Devnet> {
  const net = await startDevnet({
    seed: 'lifecycle',
    vms: ['evm', 'move', 'wasm'],
    blockTimeMs: 1000,
    accounts: 5,
    txsPerBlock: 8,
    host: '127.0.0.1',
    portBase: 0,
    logger: silentLogger(),
    ...overrides,
  });
  open.push(net);
  return net;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((net) => net.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const hashes = (net: Devnet, height: number) =>
  net.chains.map((c) => (c.chain.getBlock(height)!.block.block_id as { hash: string }).hash);

describe('devnet lifecycle', () => {
  it('gives identical chains for an equal seed, and different ones for another seed', async () => {
    const a = await devnet();
    const b = await devnet();
    const c = await devnet({ seed: 'another' });
    for (const net of [a, b, c]) await net.fastForward(15);
    expect(hashes(a, 15)).toEqual(hashes(b, 15));
    expect(a.manifest().chains.map((x) => x.accounts)).toEqual(b.manifest().chains.map((x) => x.accounts));
    for (const [i, hash] of hashes(c, 15).entries()) expect(hash).not.toBe(hashes(a, 15)[i]);
  });

  it('keeps the chains across a restart with a state dir, and goes on from there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'weft-devnet-'));
    dirs.push(dir);
    const first = await devnet({ stateDir: dir });
    await first.fastForward(12);
    const before = {
      hashes: hashes(first, 12),
      appHashes: first.chains.map((c) => c.chain.getBlock(12)!.appHash),
      balances: await Promise.all(first.chains.map((c) => c.chain.balances(c.accounts[1]!.address))),
      sequences: first.chains.map((c) => c.chain.account(c.accounts[1]!.address)!.sequence),
    };
    await first.close();
    open.splice(open.indexOf(first), 1);

    const second = await devnet({ stateDir: dir });
    expect(second.chains.map((c) => c.chain.latestHeight())).toEqual([12, 12, 12]);
    expect(hashes(second, 12)).toEqual(before.hashes);
    expect(await Promise.all(second.chains.map((c) => c.chain.balances(c.accounts[1]!.address)))).toEqual(
      before.balances,
    );
    expect(second.chains.map((c) => c.chain.account(c.accounts[1]!.address)!.sequence)).toEqual(
      before.sequences,
    );

    // The restarted chains go on with the same rules: blocks keep verifying and txs keep succeeding.
    await second.fastForward(5);
    for (const c of second.chains) {
      expect(c.chain.latestHeight()).toBe(17);
      const header = c.chain.getBlock(13)!.block.block.header;
      expect(header.last_block_id.hash).toBe(before.hashes[second.chains.indexOf(c)]);
      expect(header.app_hash).toBe(before.appHashes[second.chains.indexOf(c)]);
      const txs = [13, 14, 15, 16, 17].flatMap((h) => c.chain.getBlock(h)!.txs);
      expect(txs.filter((t) => t.result.code === 0).length).toBeGreaterThan(txs.length / 2);
    }
  });

  it('fills blocks at 50 generated txs per block on every VM', async () => {
    const net = await devnet({ txsPerBlock: 50, accounts: 20 });
    const report = await net.fastForward(5);
    expect(report.perChain.map((c) => c.txs)).toEqual([250, 250, 250]);
    for (const c of net.chains) expect(c.chain.getBlock(5)!.txs).toHaveLength(50);
  });

  it('stops producing at the halt height while the nodes keep serving', async () => {
    const net = await devnet({ vms: ['move'], haltHeight: 4 });
    await net.fastForward(10);
    const { chain, urls } = net.chains[0]!;
    expect(chain.latestHeight()).toBe(4);
    const status = (await (await fetch(`${urls.rpc}/status`)).json()) as {
      result: { sync_info: { latest_block_height: string } };
    };
    expect(status.result.sync_info.latest_block_height).toBe('4');
  });

  it('injects faults on demand and serves cleanly again when they are turned off', async () => {
    const net = await devnet({ vms: ['move'] });
    await net.fastForward(2);
    const { urls, servers } = net.chains[0]!;
    servers.setFaults({ errorRate: 0.5 });
    const statuses = await Promise.all(
      Array.from({ length: 40 }, () => fetch(`${urls.rpc}/block?height=1`).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s >= 500).length).toBeGreaterThan(5);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(5);
    servers.setFaults({ errorRate: 0 });
    const clean = await Promise.all(
      Array.from({ length: 20 }, () => fetch(`${urls.rpc}/block?height=1`).then((r) => r.status)),
    );
    expect(clean.every((s) => s === 200)).toBe(true);
  });
});
