import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { messages, route, setApiOptions, trackTransaction, transactionStatus } from '@skip-go/client';
import { createPublicClient, type Hex, http, parseAbi } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceCli } from 'weft/cli/test-support/source-cli.js';
import type { Shutdown } from 'weft/common/shutdown.js';
import { l2Denom } from 'weft/protocol/opinit.js';
import { ibcDenomOf, parseIbcPath } from 'weft/router/graph/denoms.js';
import { useTestDb } from 'weft/store/test-support/backends.js';
import type { Devnet, DevnetChain } from 'weft-devnet/devnet.js';
import type { DevAccount } from 'weft-devnet/keys.js';
import { until } from 'weft-devnet/test-support/until.js';
import { signAndBroadcastEip191 } from './eth-signer-support.js';
import {
  post,
  routeAndBuild as routeAndBuildAt,
  routerOnDevnet,
  status,
  trackToEnd,
} from './router-api-support.js';
import { control, trackingDevnet } from './router-tracking-support.js';
import { bankBalance, decode, evmChain, signAndBroadcast } from './router-wallet-support.js';

/**
 * Acceptance of `weft router` on the full devnet: each pathway as a wallet walks it, through the command's
 * own entry (registry from the devnet's manifest, its store, its tracker): route → msgs → sign (cosmjs with
 * the Initia amino types; on the EVM rollup an Ethereum key in SIGN_MODE_EIP_191, as InterwovenKit signs
 * there) → broadcast → track → status `STATE_COMPLETED_SUCCESS` → the recipient
 * holds `amount_out` more. The same through @skip-go/client, and a router process killed with SIGKILL
 * mid-transfer whose successor on the same PostgreSQL database ends the transfer.
 */

const ROOT = new URL('..', import.meta.url).pathname;
const ERC20 = parseAbi(['function balanceOf(address) view returns (uint256)']);
const pg = useTestDb('postgres');
let network: Awaited<ReturnType<typeof trackingDevnet>>;
let devnet: Devnet;
let l1: DevnetChain;
let registry: string;
let shutdown: Shutdown;
let url: string;

beforeAll(async () => {
  network = await trackingDevnet('router-e2e');
  devnet = network.devnet;
  l1 = devnet.l1!;
  registry = devnet.manifest().registry!;
  ({ url, shutdown } = await routerOnDevnet(devnet));
}, 120_000);

afterAll(async () => {
  await shutdown?.kill();
  await network?.close();
}, 60_000);

const rollup = (vm: string) => devnet.rollups.find((c) => c.vm === vm)!;

/** Signs the `cosmos_tx` of `/msgs` in amino JSON from its decoded msgs and answers the broadcast hash. */
async function signCosmosTx(chain: DevnetChain, from: DevAccount, tx: any, typeUrl: string) {
  expect(tx.cosmos_tx.chain_id).toBe(chain.chain.info.chainId);
  const msgs = tx.cosmos_tx.msgs.map(decode);
  expect(msgs.map((m: { typeUrl: string }) => m.typeUrl)).toEqual([typeUrl]);
  return signAndBroadcast(chain, from, msgs);
}

/** Tracks the source tx and polls its status until the transfer succeeded; answers the last status. */
async function trackToSuccess(chainId: string, hash: string, base = url) {
  const done = await trackToEnd(base, chainId, hash);
  expect(done.state, JSON.stringify(done)).toBe('STATE_COMPLETED_SUCCESS');
  return done;
}

const routeAndBuild = (request: Record<string, string>, addresses: string[], base = url) =>
  routeAndBuildAt(base, request, addresses);

describe('weft router end to end on the full devnet', () => {
  it('delivers and tracks an OPinit deposit L1 → EVM rollup', async () => {
    const evm = rollup('evm');
    const denom = l2Denom('1', 'uinit');
    const sender = l1.accounts[0]!;
    const recipient = evm.accounts[1]!.address;
    const { routed, tx } = await routeAndBuild(
      {
        source_asset_denom: 'uinit',
        source_asset_chain_id: l1.chain.info.chainId,
        dest_asset_denom: denom,
        dest_asset_chain_id: evm.chain.info.chainId,
        amount_in: '250000',
      },
      [sender.address, recipient],
    );
    const before = await bankBalance(evm, recipient, denom);
    const hash = await signCosmosTx(l1, sender, tx, '/opinit.ophost.v1.MsgInitiateTokenDeposit');
    const done = await trackToSuccess(l1.chain.info.chainId, hash);
    expect(done.transfer_sequence).toHaveLength(1);
    expect(done.transfer_sequence[0].op_init_transfer).toMatchObject({
      from_chain_id: l1.chain.info.chainId,
      to_chain_id: evm.chain.info.chainId,
    });
    expect(await bankBalance(evm, recipient, denom)).toBe(before + BigInt(routed.amount_out));
  }, 90_000);

  it('delivers and tracks IBC L1 → rollup, then two hops rollup → L1 → Cosmos chain', async () => {
    const move = rollup('move');
    const cosmos = devnet.external.cosmos!;
    const voucher = ibcDenomOf(parseIbcPath('transfer/channel-0/uinit'));
    const holder = move.accounts[0]!;
    const inbound = await routeAndBuild(
      {
        source_asset_denom: 'uinit',
        source_asset_chain_id: l1.chain.info.chainId,
        dest_asset_denom: voucher,
        dest_asset_chain_id: move.chain.info.chainId,
        amount_in: '300000',
      },
      [l1.accounts[1]!.address, holder.address],
    );
    const held = await bankBalance(move, holder.address, voucher);
    const inHash = await signCosmosTx(
      l1,
      l1.accounts[1]!,
      inbound.tx,
      '/ibc.applications.transfer.v1.MsgTransfer',
    );
    const inDone = await trackToSuccess(l1.chain.info.chainId, inHash);
    expect(inDone.transfer_sequence.map((t: any) => Object.keys(t))).toEqual([['ibc_transfer']]);
    expect(await bankBalance(move, holder.address, voucher)).toBe(held + BigInt(inbound.routed.amount_out));

    const recipient = cosmos.accounts[1]!.address;
    const outbound = await routeAndBuild(
      {
        source_asset_denom: voucher,
        source_asset_chain_id: move.chain.info.chainId,
        dest_asset_denom: voucher,
        dest_asset_chain_id: cosmos.chain.info.chainId,
        amount_in: '120000',
      },
      [holder.address, l1.accounts[1]!.address, recipient],
    );
    expect(outbound.routed.chain_ids).toEqual([
      move.chain.info.chainId,
      l1.chain.info.chainId,
      cosmos.chain.info.chainId,
    ]);
    const atCosmos = await bankBalance(cosmos, recipient, voucher);
    const outHash = await signCosmosTx(
      move,
      holder,
      outbound.tx,
      '/ibc.applications.transfer.v1.MsgTransfer',
    );
    const outDone = await trackToSuccess(move.chain.info.chainId, outHash);
    expect(outDone.transfer_sequence).toHaveLength(2);
    expect(outDone.transfer_sequence.map((t: any) => t.ibc_transfer?.to_chain_id)).toEqual([
      l1.chain.info.chainId,
      cosmos.chain.info.chainId,
    ]);
    expect(await bankBalance(cosmos, recipient, voucher)).toBe(atCosmos + BigInt(outbound.routed.amount_out));
  }, 120_000);

  it('delivers and tracks an OFT transfer from the EVM rollup to the external EVM chain, a MsgCall signed in SIGN_MODE_EIP_191', async () => {
    const evm = rollup('evm');
    const eth = devnet.external.evm!;
    const members = (
      devnet.manifest().services.omnichain as {
        members: Array<{ chain_id: string; oft: Hex; denom: string }>;
      }
    ).members;
    const source = members.find((m) => m.chain_id === evm.chain.info.chainId)!;
    const target = members.find((m) => m.chain_id === eth.chain.info.chainId)!;
    const sender = evm.accounts[0]!;
    const recipient = eth.accounts[2]!.hexAddress as Hex;
    const { routed, tx } = await routeAndBuild(
      {
        source_asset_denom: source.denom,
        source_asset_chain_id: evm.chain.info.chainId,
        dest_asset_denom: target.denom,
        dest_asset_chain_id: eth.chain.info.chainId,
        amount_in: String(2n * 10n ** 18n + 7n),
      },
      [sender.address, recipient],
    );
    expect(tx.cosmos_tx.chain_id).toBe(evm.chain.info.chainId);
    const msgs = tx.cosmos_tx.msgs.map(decode);
    expect(msgs.map((m: { typeUrl: string }) => m.typeUrl)).toEqual(['/minievm.evm.v1.MsgCall']);
    const reader = createPublicClient({
      chain: evmChain(eth.chain.info.evmChainId!, eth.urls.jsonRpc),
      transport: http(),
    });
    const balance = () =>
      reader.readContract({ address: target.oft, abi: ERC20, functionName: 'balanceOf', args: [recipient] });
    const before = await balance();
    // The source tx is a Cosmos tx on the rollup: tracked by its Cosmos hash, its OFT send read from its EVM logs.
    const hash = await signAndBroadcastEip191(evm, sender, msgs);
    const done = await trackToSuccess(evm.chain.info.chainId, hash);
    expect(Object.keys(done.transfer_sequence[0])).toEqual(['layer_zero_transfer']);
    expect(done.transfer_sequence[0].layer_zero_transfer).toMatchObject({
      from_chain_id: evm.chain.info.chainId,
      to_chain_id: eth.chain.info.chainId,
      txs: { send_tx: { tx_hash: hash } },
    });
    expect(await balance()).toBe(before + BigInt(routed.amount_out));
  }, 90_000);

  it('walks a deposit through @skip-go/client: route, messages, trackTransaction, transactionStatus', async () => {
    setApiOptions({ apiUrl: url });
    const wasm = rollup('wasm');
    const denom = l2Denom('3', 'uinit');
    const request = {
      sourceAssetDenom: 'uinit',
      sourceAssetChainId: l1.chain.info.chainId,
      destAssetDenom: denom,
      destAssetChainId: wasm.chain.info.chainId,
      amountIn: '6000',
    };
    const routed = await route(request);
    const recipient = wasm.accounts[2]!.address;
    const built = await messages({
      ...request,
      amountOut: routed!.amountOut,
      addressList: [l1.accounts[2]!.address, recipient],
      operations: routed!.operations,
      slippageTolerancePercent: '1',
    });
    const tx = built!.txs![0] as { cosmosTx?: { msgs: Array<{ msg: string; msgTypeUrl: string }> } };
    const msgs = tx.cosmosTx!.msgs.map((m) => decode({ msg: m.msg, msg_type_url: m.msgTypeUrl }));
    const before = await bankBalance(wasm, recipient, denom);
    const txHash = await signAndBroadcast(l1, l1.accounts[2]!, msgs);
    const tracked = await trackTransaction({ txHash, chainId: l1.chain.info.chainId });
    expect(tracked.txHash.toUpperCase()).toBe(txHash.toUpperCase());
    const done = await until(
      'the SDK status to succeed',
      async () => {
        const answer = await transactionStatus({ txHash, chainId: l1.chain.info.chainId });
        return answer.state === 'STATE_COMPLETED_SUCCESS' && answer;
      },
      60_000,
    );
    expect(done.status).toBe('STATE_COMPLETED');
    expect(done.transferSequence?.[0]?.opInitTransfer).toBeDefined();
    expect(await bankBalance(wasm, recipient, denom)).toBe(before + BigInt(routed!.amountOut));
  }, 90_000);
});

describe('weft router killed with SIGKILL mid-transfer', () => {
  const running: ChildProcess[] = [];
  afterAll(async () => {
    for (const child of running)
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
    await control(devnet, 'weft_resumeRelayer', ['ibc']);
  }, 30_000);

  /** `weft router` as its own process on the file's PostgreSQL database; answers it and its URL. */
  async function routerProcess(): Promise<{ child: ChildProcess; url: string }> {
    const child = spawn(
      process.execPath,
      sourceCli(['router', '--registry', registry, '--host', '127.0.0.1']),
      {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH,
          DB_DSN: pg.dsn(),
          PORT: '0',
          LOG_FORMAT: 'json',
          LOG_LEVEL: 'info',
          // The dead router's transfers pass to the next once its lease lapses.
          ROUTER_TRACKING_LEASE_MS: '3000',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    running.push(child);
    const output: string[] = [];
    child.stderr!.on('data', (d: Buffer) => output.push(d.toString()));
    child.stdout!.on('data', (d: Buffer) => output.push(d.toString()));
    const base = await until(
      'the router to serve',
      async () => {
        if (child.exitCode !== null) throw new Error(`router exited: ${output.join('')}`);
        return /"url":"(http:\/\/[^"]+)"/.exec(output.join(''))?.[1];
      },
      30_000,
    );
    return { child, url: base };
  }

  it('ends a held IBC transfer after the router was killed and a new one started on the same database', async () => {
    const wasm = rollup('wasm');
    const voucher = ibcDenomOf(parseIbcPath('transfer/channel-0/uinit'));
    const recipient = wasm.accounts[1]!.address;
    const first = await routerProcess();
    const { routed, tx } = await routeAndBuild(
      {
        source_asset_denom: 'uinit',
        source_asset_chain_id: l1.chain.info.chainId,
        dest_asset_denom: voucher,
        dest_asset_chain_id: wasm.chain.info.chainId,
        amount_in: '70000',
      },
      [l1.accounts[0]!.address, recipient],
      first.url,
    );
    const before = await bankBalance(wasm, recipient, voucher);
    expect(await control(devnet, 'weft_pauseRelayer', ['ibc'])).toMatchObject({ paused: true });
    const hash = await signCosmosTx(l1, l1.accounts[0]!, tx, '/ibc.applications.transfer.v1.MsgTransfer');
    const tracked = await post(first.url, '/v2/tx/track', { tx_hash: hash, chain_id: l1.chain.info.chainId });
    expect(tracked.status, JSON.stringify(tracked.json)).toBe(200);
    // Held: the source tx is seen, the packet waits for the paused relayer.
    await until('the transfer pending', async () => {
      const answer = await status(first.url, l1.chain.info.chainId, hash);
      return answer.state === 'STATE_PENDING';
    });
    first.child.kill('SIGKILL');
    await once(first.child, 'exit');
    expect(first.child.signalCode).toBe('SIGKILL');
    expect(await control(devnet, 'weft_resumeRelayer', ['ibc'])).toMatchObject({ paused: false });
    await until(
      'the voucher delivered',
      async () => (await bankBalance(wasm, recipient, voucher)) === before + BigInt(routed.amount_out),
    );

    const second = await routerProcess();
    const done = await until(
      'the new router to end the transfer',
      async () => {
        const answer = await status(second.url, l1.chain.info.chainId, hash);
        expect(answer.state, JSON.stringify(answer)).not.toMatch(/ERROR|ABANDONED/);
        return answer.state === 'STATE_COMPLETED_SUCCESS' && answer;
      },
      60_000,
    );
    expect(done.status).toBe('STATE_COMPLETED');
    expect(done.transfer_sequence[0].ibc_transfer.to_chain_id).toBe(wasm.chain.info.chainId);
  }, 150_000);
});
