import { type ChildProcess, execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from 'weft/store/db.js';
import { devCli, json, killAll, startDev as startDevProcess } from '../dev/test-support/dev-process.js';
import { until } from '../test-support/until.js';

const dir = mkdtempSync(join(tmpdir(), 'weft-dev-'));
const children: ChildProcess[] = [];
afterAll(() => {
  killAll(children);
  rmSync(dir, { recursive: true, force: true });
});

const cli = devCli;

interface Row {
  chainId: string;
  role: string;
  vm: string;
  rpc?: string;
  api?: string;
}

/** A chain's row of the table `weft dev` prints once the whole stack serves. */
const CHAIN_ROW =
  /^(\S+)\s+role=(\S+)\s+vm=(\S+)\s+height=\d+(?: rpc=(\S+))?(?: rest=(\S+))?(?: json-rpc=(\S+))?(?: api=(http:\/\/127\.0\.0\.1:\d+))?$/;
/** The table's last rows: the router, then the devnet's control surface and registry folder. */
const ROUTER_ROW = /^router\s+url=(http:\/\/127\.0\.0\.1:\d+)$/m;
const DASHBOARD_ROW = /^dashboard\s+url=(http:\/\/127\.0\.0\.1:\d+)$/m;
const CONTROL_ROW = /^control\s+url=(http:\/\/127\.0\.0\.1:\d+) registry=(\S+)$/m;

/** The source txs of the transfers the L1's traffic starts: OPinit deposits and IBC transfers. */
const INTERCHAIN_MSGS = [
  '/opinit.ophost.v1.MsgInitiateTokenDeposit',
  '/ibc.applications.transfer.v1.MsgTransfer',
];
interface InterchainTx {
  txhash: string;
  height: string;
  code: number;
  tx: { body: { messages: Array<{ '@type': string }> } };
}

const startDev = (args: string[]) => startDevProcess(args, children);

describe('weft dev (CLI)', () => {
  // A store of the former layout (one database, a schema per chain), which weft dev replaces at start.
  beforeAll(async () => {
    const former = await openDb({ dataDir: join(dir, 'store') });
    await (await former.withSchema('chain_weft_evm_1')).exec('CREATE TABLE progress (name text)');
    await former.close();
  });

  it('stops at start with one line naming an invalid setting', async () => {
    const result = await promisify(execFile)(process.execPath, cli(['--api-port-base', 'soon'])).then(
      () => ({ code: 0, stderr: '' }),
      (err: { code: number; stderr: string }) => err,
    );
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n').slice(-2)).toEqual([
      'weft: invalid configuration: --api-port-base: "soon" is not an integer',
      '  hint: `weft dev --help` lists the settings of weft dev',
    ]);
  });

  it('runs the full devnet, an indexer and an API per chain with a VM on a store each, and the router tracking the traffic; stops cleanly on SIGTERM and resumes', async () => {
    const halt = 8;
    const dataDir = join(dir, 'store');
    const manifestPath = join(dir, 'manifest.json');
    const args = [
      '--vms',
      'evm,move',
      '--seed',
      'dev-test',
      '--block-time',
      '200ms',
      '--txs-per-block',
      '4',
      '--halt-height',
      String(halt),
      '--port-base',
      '0',
      '--api-port-base',
      '0',
      '--router-port',
      '0',
      '--dashboard-port',
      '0',
      // Every port is picked free: another stack may run beside this one.
      '--registry-port',
      '0',
      '--registry',
      join(dir, 'registry'),
      '--manifest',
      manifestPath,
      '--data-dir',
      dataDir,
      '--state-dir',
      join(dir, 'chains'),
    ];
    const { child, out, exited } = startDev(args);
    let transferHash = '';

    try {
      const table = await until(
        'the table of the stack',
        async () => {
          if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}`);
          return CONTROL_ROW.test(out.stdout) ? out.stdout : undefined;
        },
        // Generous: on a busy machine the full network and the stores' start (PGlite's initdb) take a while.
        120_000,
        { retryErrors: true },
      );
      const rows = table
        .split('\n')
        .map((line) => CHAIN_ROW.exec(line))
        .filter((m) => m !== null)
        .map((m): Row => ({ chainId: m[1]!, role: m[2]!, vm: m[3]!, rpc: m[4], api: m[7] }));
      expect(rows.map((r) => [r.chainId, r.role, r.vm, r.api !== undefined])).toEqual([
        ['weft-evm-1', 'rollup', 'evm', true],
        ['weft-move-1', 'rollup', 'move', true],
        ['weft-l1-1', 'l1', 'move', true],
        ['weft-cosmos-1', 'external-cosmos', '-', false],
        ['31337', 'external-evm', 'evm', false],
      ]);
      const indexed = rows.filter((r) => r.api !== undefined);
      expect(new Set(indexed.map((r) => r.api)).size).toBe(3);
      const routerUrl = ROUTER_ROW.exec(table)![1]!;
      const [, controlUrl, registry] = CONTROL_ROW.exec(table)!;
      expect(registry).toBe(join(dir, 'registry'));

      // The manifest holds what the table shows, the indexer APIs and the router with it.
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
      expect(manifest.router).toBe(routerUrl);
      // The dashboard answers its page, and its configuration names every chain's API and the router.
      const dashboardUrl = DASHBOARD_ROW.exec(table)![1]!;
      expect(manifest.dashboard).toBe(dashboardUrl);
      const page = await fetch(`${dashboardUrl}/chains/weft-evm-1`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('/assets/app.js');
      const config = await json(`${dashboardUrl}/config.json`);
      expect(config.router).toBe(routerUrl);
      expect(config.chains.map((c: { chain_id: string; role: string }) => [c.chain_id, c.role])).toEqual(
        rows.map((r) => [r.chainId, r.role]),
      );
      expect(manifest.control).toBe(controlUrl);
      expect(manifest.registry).toBe(registry);
      expect(
        manifest.chains.map((c: { chain_id: string; indexer_api: string | null }) => [
          c.chain_id,
          c.indexer_api,
        ]),
      ).toEqual(rows.map((r) => [r.chainId, r.api ?? null]));

      // The router serves the devnet's registry folder.
      const { chains } = await json(`${routerUrl}/v2/info/chains`);
      const routed = chains.map((c: { chain_id: string }) => c.chain_id);
      for (const chainId of ['weft-l1-1', 'weft-evm-1', 'weft-move-1', 'weft-cosmos-1'])
        expect(routed).toContain(chainId);

      for (const rollup of indexed.map((r) => ({ ...r, api: r.api!, rpc: r.rpc! }))) {
        // The devnet halts at `halt`; the index is complete once the API reports it (and, on EVM, the
        // internal txs and the rich list with it).
        const status = await until(
          `${rollup.chainId} indexed to ${halt}`,
          async () => {
            const s = await json(`${rollup.api}/status`);
            const done =
              s.height === halt &&
              (rollup.vm !== 'evm' || (s.internal_tx_height === halt && s.rich_list_height === halt));
            return done ? s : undefined;
          },
          60_000,
          { retryErrors: true },
        );
        expect(status.chain_id).toBe(rollup.chainId);

        // Every tx the node holds up to the halt height, counted from its own CometBFT RPC.
        let produced = 0;
        for (let height = 1; height <= halt; height += 1) {
          const block = await json(`${rollup.rpc}/block?height=${height}`);
          produced += block.result.block.data.txs.length;
        }
        expect(produced).toBeGreaterThan(0);
        const page = await json(`${rollup.api}/indexer/tx/v1/txs?pagination.limit=1`);
        expect(page.pagination.total).toBe(String(produced));
        expect(page.txs).toHaveLength(1);
      }

      // The router tracks the transfers the traffic starts without a track call: the L1's first
      // deposit or IBC transfer that succeeded reaches a terminal status (relayed before the halt).
      const l1Api = indexed.find((r) => r.role === 'l1')!.api!;
      const { txs } = await json(`${l1Api}/indexer/tx/v1/txs?pagination.limit=100&pagination.reverse=false`);
      const transfer = (txs as InterchainTx[])
        .filter(
          (tx) => tx.code === 0 && tx.tx.body.messages.some((m) => INTERCHAIN_MSGS.includes(m['@type'])),
        )
        .sort((a, b) => Number(a.height) - Number(b.height))[0];
      expect(transfer, 'an interchain transfer of the traffic').toBeDefined();
      transferHash = transfer!.txhash;
      const status = await until(
        `the status of ${transfer!.txhash}`,
        async () => {
          const s = await json(`${routerUrl}/v2/tx/status?chain_id=weft-l1-1&tx_hash=${transfer!.txhash}`);
          return s.state.startsWith('STATE_COMPLETED') ? s : undefined;
        },
        30_000,
        { retryErrors: true },
      );
      expect(status.state).toBe('STATE_COMPLETED_SUCCESS');
    } catch (err) {
      throw new Error(`${(err as Error).message}\n--- stdout\n${out.stdout}\n--- stderr\n${out.stderr}`);
    }

    child.kill('SIGTERM');
    const exit = await Promise.race([exited, sleep(15_000).then(() => 'timeout' as const)]);
    expect(exit, out.stderr).toEqual({ code: 0, signal: null });
    // Nothing failed on the way down (an indexer writing to a closed store, say).
    expect(out.stderr).not.toMatch(/^(error|fatal)/m);
    expect(out.stderr.match(/^warn .*former layout.*$/gm)).toHaveLength(1);

    // A store per chain, closed cleanly: each opens again and holds its chain's index.
    for (const folder of ['chain_weft_evm_1', 'chain_weft_move_1', 'chain_weft_l1_1']) {
      const db = await openDb({ dataDir: join(dataDir, folder) });
      try {
        const [row] = await db.query<{ height: string }>(`SELECT height FROM progress WHERE name = 'block'`);
        expect(Number(row?.height), folder).toBe(halt);
      } finally {
        await db.close();
      }
    }

    // Started again on the same folders, the router still answers for the transfer it tracked.
    const again = startDev(args);
    try {
      const routerUrl = await until(
        'the router of the restarted stack',
        async () => {
          if (again.child.exitCode !== null) throw new Error(`exited with ${again.child.exitCode}`);
          return CONTROL_ROW.test(again.out.stdout) ? ROUTER_ROW.exec(again.out.stdout)![1] : undefined;
        },
        60_000,
        { retryErrors: true },
      );
      const status = await json(`${routerUrl}/v2/tx/status?chain_id=weft-l1-1&tx_hash=${transferHash}`);
      expect(status.state).toBe('STATE_COMPLETED_SUCCESS');
    } catch (err) {
      throw new Error(`${(err as Error).message}\n--- stderr\n${again.out.stderr}`);
    }
    again.child.kill('SIGTERM');
    expect(await Promise.race([again.exited, sleep(15_000).then(() => 'timeout' as const)])).toEqual({
      code: 0,
      signal: null,
    });
    expect(again.out.stderr).not.toMatch(/another run/);
  }, 300_000);
});
