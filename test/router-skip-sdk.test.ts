import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DirectSecp256k1HdWallet } from '@cosmjs/proto-signing';
import {
  assets,
  BridgeType,
  chains,
  type ExecuteRouteOptions,
  executeRoute,
  messages,
  messagesDirect,
  type RouteResponse,
  route,
  setClientOptions,
  submitTransaction,
  trackTransaction,
  transactionStatus,
} from '@skip-go/client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { silentLogger } from 'weft/common/logger.js';
import { l2Denom } from 'weft/protocol/opinit.js';
import { createRouterServer, type RouterServer } from 'weft/router/api/server.js';
import { loadRegistry } from 'weft/router/registry/load.js';
import {
  migrateTracking,
  ROUTER_SCHEMA,
  startTracker,
  type Tracker,
  trackedChain,
  trackingRoutes,
} from 'weft/router/tracking/index.js';
import { type Db, openDb } from 'weft/store/db.js';
import type { Devnet, DevnetChain } from 'weft-devnet/devnet.js';
import { testDevnet } from 'weft-devnet/test-support/devnet.js';
import {
  expectFinalEntry,
  refused,
  subscribeUntilFinal,
  waitForTransactionWithin,
} from './router-skip-sdk-support.js';
import { control, until } from './router-tracking-support.js';
import { decode, signAndBroadcast } from './router-wallet-support.js';

/**
 * `@skip-go/client@1.6.1`'s reading and tracking functions, called through the SDK's own code, against the
 * router (its API server and tracker as `weft router` mounts them) on a small devnet (the L1 and a Move
 * rollup): `chains`, `assets`, `route`, `messages`, `messagesDirect`, `trackTransaction`,
 * `transactionStatus`, `waitForTransaction` and `subscribeToRouteStatus`, each on success and on its
 * failures. Every wait is bounded and must end by itself: the SDK calls a tx final from
 * `transfers[0].state`, so each status carries that entry (Skip's `docs/swagger.yml`), a source tx that
 * failed on chain, one that moved nothing, one never seen and a stalled deposit included. `executeRoute`
 * broadcasts through `POST /v2/tx/submit`, which the router does not serve: a JSON 501 that says why.
 * The abandon windows are a few seconds here (10 min and 5 min by default, as Skip's).
 */

// Long enough that a deposit finalized by a busy devnet is not abandoned on its way.
const ABANDON_MS = 6_000;
const UNSEEN_MS = 4_000;
const dir = mkdtempSync(join(tmpdir(), 'weft-skip-sdk-'));
let devnet: Devnet;
let l1: DevnetChain;
let rollup: DevnetChain;
let db: Db;
let tracker: Tracker;
let server: RouterServer;
let url: string;
let l1Id: string;
let rollupId: string;
/** The rollup's OPinit voucher of the L1's uinit. */
let voucher: string;

beforeAll(async () => {
  // The SDK logs every error answer and cancelled poll (console.error, console.info): the asserts say it all.
  for (const method of ['error', 'warn', 'info', 'log'] as const)
    vi.spyOn(console, method).mockImplementation(() => undefined);
  devnet = await testDevnet({
    seed: 'router-skip-sdk',
    vms: ['move'],
    network: 'full',
    accounts: 3,
    txsPerBlock: 0,
    blockTimeMs: 200,
    registryDir: join(dir, 'registry'),
  });
  l1 = devnet.l1!;
  rollup = devnet.rollups[0]!;
  l1Id = l1.chain.info.chainId;
  rollupId = rollup.chain.info.chainId;
  devnet.run();
  await until('first blocks', async () => devnet.all.every((c) => c.chain.latestHeight() >= 2));
  const registry = await loadRegistry(join(dir, 'registry'));
  const bridges = (
    devnet.manifest().services.opinit as { bridges: Array<{ chain_id: string; bridge_id: string }> }
  ).bridges;
  voucher = l2Denom(bridges.find((b) => b.chain_id === rollupId)!.bridge_id, 'uinit');
  db = await (await openDb({ dataDir: 'memory://' })).withSchema(ROUTER_SCHEMA);
  await migrateTracking(db);
  tracker = await startTracker({
    db,
    chains: registry.chains.map(trackedChain),
    logger: silentLogger(),
    pollMs: 100,
    leaseMs: 1_500,
    abandonAfterMs: ABANDON_MS,
    unseenAfterMs: UNSEEN_MS,
  });
  server = await createRouterServer({ registry, plugins: [trackingRoutes({ tracker })] });
  url = await server.listen('127.0.0.1', 0);
  const rpcOf = new Map(devnet.all.map((c) => [c.chain.info.chainId, (c.urls as { rpc?: string }).rpc]));
  setClientOptions({
    apiUrl: url,
    endpointOptions: { getRpcEndpointForChain: async (chainId) => rpcOf.get(chainId) ?? '' },
  });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await tracker?.stop();
  await db?.close();
  await devnet?.close();
  rmSync(dir, { recursive: true, force: true });
  vi.restoreAllMocks();
}, 60_000);

const depositRequest = (amountIn: string) => ({
  sourceAssetDenom: 'uinit',
  sourceAssetChainId: l1Id,
  destAssetDenom: voucher,
  destAssetChainId: rollupId,
  amountIn,
});

/** `route` then `messages` through the SDK: the one deposit msg, decoded as a wallet does, to sign. */
async function depositMsg(amountIn: string) {
  const routed = (await route(depositRequest(amountIn))) as RouteResponse;
  const built = await messages({
    ...depositRequest(amountIn),
    amountOut: routed.amountOut,
    addressList: [l1.accounts[0]!.address, rollup.accounts[1]!.address],
    operations: routed.operations,
    slippageTolerancePercent: '1',
  });
  const tx = built!.txs![0] as { cosmosTx: { msgs: Array<{ msg: string; msgTypeUrl: string }> } };
  return tx.cosmosTx.msgs.map((m) => decode({ msg: m.msg, msg_type_url: m.msgTypeUrl }));
}

const accountSequence = async (address: string) => {
  const answer = await fetch(`${l1.urls.rest}/cosmos/auth/v1beta1/account_info/${address}`);
  return ((await answer.json()) as { info: { sequence: string } }).info.sequence;
};

describe('@skip-go/client reading the router', () => {
  it('chains: the registry chains, the L1 first; an unknown chain id lists nothing', async () => {
    const listed = await chains({ chainIds: [l1Id, rollupId] });
    expect(listed?.map((c) => c.chainId)).toEqual([l1Id, rollupId]);
    expect(listed?.[0]).toMatchObject({ chainType: 'cosmos', bech32Prefix: 'init' });
    expect(listed?.[0]?.feeAssets?.[0]).toMatchObject({ denom: 'uinit' });
    expect(await chains({ chainIds: ['nowhere-1'] })).toEqual([]);
  });

  it('assets: each chain with its assets; an unknown chain id maps to nothing', async () => {
    const held = await assets({ chainIds: [l1Id, rollupId] });
    expect(held?.[l1Id]?.find((a) => a.denom === 'uinit')).toMatchObject({ chainId: l1Id, decimals: 6 });
    expect(held?.[rollupId]?.find((a) => a.denom === voucher)).toMatchObject({
      originDenom: 'uinit',
      originChainId: l1Id,
    });
    expect(await assets({ chainIds: ['nowhere-1'] })).toEqual({});
  });

  it('route: an OPinit deposit; unknown chain or denom, no route and a bad amount are refused with their codes', async () => {
    const routed = await route(depositRequest('7000'));
    expect(routed).toMatchObject({ amountOut: '7000', txsRequired: 1, chainIds: [l1Id, rollupId] });
    expect(routed?.operations[0]).toHaveProperty('opInitTransfer');
    await expect(route({ ...depositRequest('1'), destAssetChainId: 'nowhere-1' })).rejects.toEqual(
      refused(5, /chain nowhere-1 is not supported/),
    );
    await expect(route({ ...depositRequest('1'), sourceAssetDenom: 'unothing' })).rejects.toEqual(
      refused(5, /unknown denom unothing/),
    );
    await expect(route({ ...depositRequest('1'), bridges: [BridgeType.IBC] })).rejects.toEqual(
      refused(5, /^no route from uinit/),
    );
    await expect(route(depositRequest('12.5'))).rejects.toEqual(refused(3, /amount_in/));
  });

  it('messages and messagesDirect: the deposit msg; a bad address or an unknown chain is refused', async () => {
    const [msg] = await depositMsg('8000');
    expect(msg).toMatchObject({
      typeUrl: '/opinit.ophost.v1.MsgInitiateTokenDeposit',
      value: { to: rollup.accounts[1]!.address, amount: { denom: 'uinit', amount: '8000' } },
    });
    const routed = (await route(depositRequest('8000'))) as RouteResponse;
    await expect(
      messages({
        ...depositRequest('8000'),
        amountOut: routed.amountOut,
        addressList: [l1.accounts[0]!.address, 'init1notanaddress'],
        operations: routed.operations,
        slippageTolerancePercent: '1',
      }),
    ).rejects.toEqual(refused(3, /address/));
    const addresses = { [l1Id]: l1.accounts[0]!.address, [rollupId]: rollup.accounts[1]!.address };
    const direct = await messagesDirect({
      ...depositRequest('8000'),
      chainIdsToAddresses: addresses,
      slippageTolerancePercent: '1',
    });
    expect(direct?.route?.operations).toEqual(routed.operations);
    await expect(
      messagesDirect({
        ...depositRequest('8000'),
        destAssetChainId: 'nowhere-1',
        chainIdsToAddresses: addresses,
        slippageTolerancePercent: '1',
      }),
    ).rejects.toEqual(refused(5, /nowhere-1/));
  });
});

describe('@skip-go/client tracking through the router', () => {
  it('trackTransaction refuses a malformed hash and an unknown chain; transactionStatus an untracked tx, and so ends waitForTransaction', async () => {
    const once = { maxRetries: 1, retryInterval: 10 };
    await expect(trackTransaction({ chainId: l1Id, txHash: 'xyz', ...once })).rejects.toEqual(
      refused(3, /tx_hash must be 64 hex digits/),
    );
    await expect(
      trackTransaction({ chainId: 'nowhere-1', txHash: 'AB'.repeat(32), ...once }),
    ).rejects.toEqual(refused(5, /chain ID not supported: nowhere-1/));
    await expect(transactionStatus({ chainId: l1Id, txHash: 'AB'.repeat(32) })).rejects.toEqual(
      refused(5, /^tx not found/),
    );
    const waited = await waitForTransactionWithin({
      chainId: l1Id,
      txHash: 'AB'.repeat(32),
      doNotTrack: true,
    });
    expect(waited.error).toEqual(refused(5, /^tx not found/));
  });

  it('a delivered deposit: waitForTransaction returns it and subscribeToRouteStatus completes, transfers[0] STATE_COMPLETED_SUCCESS', async () => {
    const txHash = await signAndBroadcast(l1, l1.accounts[0]!, await depositMsg('9000'), 'direct');
    const tracked = await trackTransaction({ chainId: l1Id, txHash });
    expect(tracked.txHash.toUpperCase()).toBe(txHash.toUpperCase());
    const [waited, subscribed] = await Promise.all([
      waitForTransactionWithin({ chainId: l1Id, txHash, doNotTrack: true }),
      subscribeUntilFinal(l1Id, txHash),
    ]);
    expect(waited.error).toBeUndefined();
    expectFinalEntry(waited.value, 'STATE_COMPLETED_SUCCESS');
    expect(waited.value!.transfers![0]!.transferSequence![0]!.opInitTransfer).toMatchObject({
      state: 'OPINIT_TRANSFER_RECEIVED',
    });
    expect(subscribed.status).toBe('completed');
  }, 30_000);

  it('a source tx that failed on chain: transfers[0] STATE_COMPLETED_ERROR with the execution error details; both helpers end failed', async () => {
    const sender = l1.accounts[2]!;
    const send = {
      typeUrl: '/cosmos.bank.v1beta1.MsgSend',
      value: {
        fromAddress: sender.address,
        toAddress: l1.accounts[1]!.address,
        amount: [{ denom: 'uinit', amount: '9'.repeat(30) }],
      },
    };
    const txHash = await signAndBroadcast(l1, sender, [send], 'direct', true);
    const [waited, subscribed] = await Promise.all([
      waitForTransactionWithin({ chainId: l1Id, txHash }),
      subscribeUntilFinal(l1Id, txHash),
    ]);
    expect(waited.error?.message).toMatch(/^STATUS_ERROR_TRANSACTION_EXECUTION: .*insufficient funds/);
    expect(subscribed.status).toBe('failed');
    const status = await transactionStatus({ chainId: l1Id, txHash });
    expectFinalEntry(status, 'STATE_COMPLETED_ERROR');
    expect(status.transfers![0]!.transferSequence).toEqual([]);
    expect(status.transfers![0]!.error).toEqual({
      type: 'STATUS_ERROR_TRANSACTION_EXECUTION',
      message: expect.stringMatching(/insufficient funds/),
      details: { code: 5, message: expect.stringMatching(/insufficient funds/) },
    });
    expect(status.transfers![0]!.transferAssetRelease).toMatchObject({ chainId: l1Id, released: true });
  }, 30_000);

  it('a successful tx that moved nothing across chains: transfers[0] STATE_COMPLETED_SUCCESS; both helpers end', async () => {
    const send = {
      typeUrl: '/cosmos.bank.v1beta1.MsgSend',
      value: {
        fromAddress: l1.accounts[1]!.address,
        toAddress: l1.accounts[2]!.address,
        amount: [{ denom: 'uinit', amount: '3' }],
      },
    };
    const txHash = await signAndBroadcast(l1, l1.accounts[1]!, [send], 'direct');
    const [waited, subscribed] = await Promise.all([
      waitForTransactionWithin({ chainId: l1Id, txHash }),
      subscribeUntilFinal(l1Id, txHash),
    ]);
    expect(waited.error).toBeUndefined();
    expectFinalEntry(waited.value, 'STATE_COMPLETED_SUCCESS');
    expect(waited.value!.transfers![0]!.transferSequence).toEqual([]);
    expect(subscribed.status).toBe('completed');
  }, 30_000);

  it('a tx never on chain: STATE_SUBMITTED in transfers[0], then abandoned; both helpers end failed', async () => {
    const txHash = 'CD'.repeat(32);
    await trackTransaction({ chainId: l1Id, txHash });
    const submitted = await transactionStatus({ chainId: l1Id, txHash });
    expect(submitted.state).toBe('STATE_SUBMITTED');
    expect(submitted.transfers?.[0]).toMatchObject({ state: 'STATE_SUBMITTED', nextBlockingTransfer: null });
    const [waited, subscribed] = await Promise.all([
      waitForTransactionWithin({ chainId: l1Id, txHash, doNotTrack: true }),
      subscribeUntilFinal(l1Id, txHash),
    ]);
    expect(waited.error?.message).toBe('Tracking for the transaction has been abandoned');
    expect(subscribed.status).toBe('failed');
    const status = await transactionStatus({ chainId: l1Id, txHash });
    expectFinalEntry(status, 'STATE_ABANDONED');
    expect(status.transfers![0]!.error).toMatchObject({
      message: expect.stringMatching(/^source tx not seen/),
    });
  }, 30_000);

  it('a deposit its executor never finalizes: abandoned, transfers[0] STATE_ABANDONED saying why; both helpers end failed', async () => {
    const executor = `opinit-executor-${rollupId}`;
    expect(await control(devnet, 'weft_pauseRelayer', [executor])).toMatchObject({ paused: true });
    try {
      const txHash = await signAndBroadcast(l1, l1.accounts[0]!, await depositMsg('4000'), 'direct');
      const [waited, subscribed] = await Promise.all([
        waitForTransactionWithin({ chainId: l1Id, txHash }),
        subscribeUntilFinal(l1Id, txHash),
      ]);
      expect(waited.statuses.map((s) => s.state)).toContain('STATE_PENDING');
      expect(waited.error?.message).toBe('Tracking for the transaction has been abandoned');
      expect(subscribed.status).toBe('failed');
      const status = await transactionStatus({ chainId: l1Id, txHash });
      expectFinalEntry(status, 'STATE_ABANDONED');
      expect(status.transfers![0]!.error).toMatchObject({ message: expect.stringMatching(/^no progress/) });
      expect(status.transfers![0]!.transferSequence![0]!.opInitTransfer).toMatchObject({
        state: 'OPINIT_TRANSFER_SENT',
      });
    } finally {
      await control(devnet, 'weft_resumeRelayer', [executor]);
    }
  }, 30_000);
});

describe('@skip-go/client executing through the router', () => {
  it('executeRoute signs, then submit is a JSON 501 naming why: the router never broadcasts, nothing is sent', async () => {
    const sender = l1.accounts[1]!;
    const routed = (await route(depositRequest('5000'))) as RouteResponse;
    const before = await accountSequence(sender.address);
    const signed: string[] = [];
    const executed = executeRoute({
      route: routed,
      userAddresses: [
        { chainId: l1Id, address: sender.address },
        { chainId: rollupId, address: rollup.accounts[1]!.address },
      ],
      // The SDK types signers with its own copy of @cosmjs (0.33): the same shape.
      getCosmosSigner: (async () =>
        DirectSecp256k1HdWallet.fromMnemonic(sender.mnemonic, {
          prefix: 'init',
        })) as unknown as ExecuteRouteOptions['getCosmosSigner'],
      onTransactionSigned: async ({ chainId }) => void signed.push(chainId),
    });
    await expect(executed).rejects.toEqual(refused(12, /never broadcasts.*\/v2\/tx\/track/));
    expect(signed).toEqual([l1Id]);
    expect(await accountSequence(sender.address)).toBe(before);

    await expect(submitTransaction({ chainId: l1Id, tx: 'AAAA' })).rejects.toEqual(
      refused(12, /never broadcasts/),
    );
    const answer = await fetch(`${url}/v2/tx/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ chain_id: l1Id, tx: 'AAAA' }),
    });
    expect(answer.status).toBe(501);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await answer.json()).toEqual({ code: 12, message: expect.any(String), details: [] });
    const doc = (await (await fetch(`${url}/swagger/doc.json`)).json()) as any;
    expect(doc.paths['/v2/tx/submit'].post).toMatchObject({
      summary: expect.stringMatching(/never broadcasts/),
      responses: { '501': expect.anything() },
    });
  }, 30_000);
});
