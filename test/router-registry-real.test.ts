import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { AminoTypes } from '@cosmjs/stargate';
import { aminoConverters } from '@initia/amino-converter';
import { TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { pino } from 'pino';
import { decodeFunctionData, getAddress, type Hex, parseAbi } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toBech32 } from 'weft/chain/address.js';
import { createRouterServer, type RouterServer } from 'weft/router/api/server.js';
import { loadRegistry } from 'weft/router/registry/load.js';
import type { RouterRegistry } from 'weft/router/registry/types.js';
import { deriveAccount } from 'weft-devnet/keys.js';
import { EthereumAminoSigner, signEip191 } from './eth-signer-support.js';
import {
  bridgeOf,
  deadUrl,
  type FixtureAsset,
  fixtureOrigin,
  hookCall,
  label,
  operationWords,
  REGISTRY_FIXTURES,
  readFixture,
  reasonOf,
  shortened,
  transferChannel,
} from './router-registry-real-support.js';

/**
 * The router on the real initia-registry (`test/fixtures/registry/`, mainnets and testnets), every
 * node URL sent to a dead loopback port: every asset it lists is routed or explained, and every route's
 * msgs decode as wallets decode them and name the channels and bridges the registry's JSON names.
 */

const aminoTypes = new AminoTypes(aminoConverters);
/** minievm's ERC20Wrapper, as x/evm/contracts/erc20_wrapper/ERC20Wrapper.sol declares it. */
const ERC20_WRAPPER = parseAbi([
  'function approve(address spender, uint256 value) returns (bool)',
  'function toRemoteAndOPWithdraw(string receiver, string localDenom, uint localAmount)',
  'function toRemoteAndIBCTransfer(string localDenom, uint localAmount, string channel, string receiver, uint timeout, string memo)',
]);
const WALLET = deriveAccount({ seed: 'registry-real', index: 0, keyType: 'ethsecp256k1', prefix: 'init' });
/** A request that takes longer hangs. */
const REQUEST_MS = 5_000;

interface Pair {
  source: FixtureAsset;
  dest: FixtureAsset;
}

describe.each(['mainnets', 'testnets'])('the router on the real initia-registry: %s', (net) => {
  const fixture = readFixture(net);
  const warnings: string[] = [];
  /** `/route` answers (status and bytes) by request, to compare with a second round. */
  const answers = new Map<string, string>();
  let registry: RouterRegistry;
  let server: RouterServer;
  let dead: string;

  beforeAll(async () => {
    dead = await deadUrl();
    const overrides = Object.fromEntries(
      [...fixture.chains.keys()].map((id) => [id, { rpc: dead, rest: dead, jsonRpc: dead }]),
    );
    const logger = pino({ level: 'warn' }, { write: (line: string) => warnings.push(JSON.parse(line).msg) });
    registry = await loadRegistry(fixture.dir, overrides, { logger });
    server = await createRouterServer({ registry, nodeTimeoutMs: 1000 });
  });
  afterAll(() => server?.close());

  async function call(method: 'GET' | 'POST', url: string, payload?: object) {
    let timer: NodeJS.Timeout | undefined;
    const hang = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${url} ${JSON.stringify(payload)} hangs`)), REQUEST_MS);
    });
    try {
      const answer = await Promise.race([server.app.inject({ method, url, payload }), hang]);
      return { status: answer.statusCode, body: answer.body, json: answer.json() as any };
    } finally {
      clearTimeout(timer);
    }
  }

  const routeRequest = ({ source, dest }: Pair) => ({
    source_asset_chain_id: source.chainId,
    source_asset_denom: source.base,
    dest_asset_chain_id: dest.chainId,
    dest_asset_denom: dest.base,
    // One whole token of the source.
    amount_in: (10n ** BigInt(source.decimals)).toString(),
  });

  /** `/route`: a 200, or a JSON 4xx whose message says why; never a 5xx. Kept for the second round. */
  async function route(pair: Pair) {
    const request = routeRequest(pair);
    const answer = await call('POST', '/v2/fungible/route', request);
    expect(answer.status, answer.body).toBeLessThan(500);
    if (answer.status !== 200) {
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.json).toMatchObject({
        code: expect.any(Number),
        message: expect.any(String),
        details: [],
      });
      // Both are listed: neither may be "unknown", and a refusal says why after what it refuses.
      expect(answer.json.message).not.toMatch(/unknown denom/);
      expect(answer.json.message).toMatch(/: \S/);
    }
    answers.set(JSON.stringify(request), `${answer.status} ${answer.body}`);
    return answer;
  }

  /** The L1's first fee asset (INIT). */
  function l1Init() {
    const l1 = [...fixture.chains.values()].find((c) => c.metadata?.is_l1);
    return fixture.asset(l1.chain_id, l1.fees.fee_tokens[0].denom)!;
  }

  const addressOn = (chainId: string) =>
    toBech32(fixture.chains.get(chainId).bech32_prefix, Buffer.from(WALLET.hexAddress.slice(2), 'hex'));

  /** The hook InterwovenKit signs for a deposit that converts on arrival, built from the registry's trace. */
  async function signedHook(pair: Pair) {
    const { contract, input } = hookCall(pair.dest, pair.source, WALLET.hexAddress as Hex);
    const sender = addressOn(pair.dest.chainId);
    const value = { sender, contractAddr: contract, input, value: '0', accessList: [], authList: [] };
    const tx = await signEip191(new EthereumAminoSigner(WALLET), {
      chainId: pair.dest.chainId,
      messages: [{ typeUrl: '/minievm.evm.v1.MsgCall', value }],
      fee: { amount: [], gas: '1' },
      memo: '',
      accountNumber: 0,
      sequence: 0,
    });
    return { signer: sender, hook: Buffer.from(TxRaw.encode(tx).finish()).toString('base64') };
  }

  /** The route's operations against the chain.json files: channels, bridges and bridged denoms. */
  function checkOperations(operations: any[]) {
    for (const op of operations) {
      if (op.transfer) {
        const { from_chain_id: from, to_chain_id: to, channel } = op.transfer;
        expect(channel, `${from} → ${to}`).toBe(transferChannel(fixture, from, to));
        continue;
      }
      const t = op.op_init_transfer;
      expect(t, JSON.stringify(op)).toBeDefined();
      const depositing = fixture.chains.get(t.from_chain_id).metadata.is_l1 === true;
      const bridge = bridgeOf(fixture, depositing ? t.to_chain_id : t.from_chain_id);
      expect(t.op_init_bridge_id).toBe(bridge.id);
      expect(bridge.denoms).toContain(depositing ? t.denom_in : t.denom_out);
    }
  }

  /** `/msgs` of a route: decoded by `fromAmino`, each msg naming what the registry's JSON names. */
  async function checkMsgs(pair: Pair, routed: any) {
    const hook = routed.required_op_hook ? await signedHook(pair) : undefined;
    const built = await call('POST', '/v2/fungible/msgs', {
      ...routeRequest(pair),
      amount_out: routed.amount_out,
      address_list: routed.required_chain_addresses.map(addressOn),
      operations: routed.operations,
      slippage_tolerance_percent: '1',
      ...(hook ? { signed_op_hook: hook } : {}),
    });
    expect(built.status, built.body).toBe(200);
    expect(built.json.txs).toHaveLength(1);
    // No OFT endpoint nor EVM-only chain in these registries: every tx is a cosmos_tx.
    const { cosmos_tx: tx, evm_tx: evmTx } = built.json.txs[0];
    expect(evmTx).toBeUndefined();
    expect(tx.chain_id).toBe(pair.source.chainId);
    const msgs = tx.msgs.map((m: any) =>
      aminoTypes.fromAmino({ type: aminoConverters[m.msg_type_url]!.aminoType, value: JSON.parse(m.msg) }),
    );
    const [first, ...rest] = routed.operations;
    const amount = (10n ** BigInt(pair.source.decimals)).toString();
    const token = { denom: pair.source.base, amount };
    const wrapped = pair.source.json.traces?.at(-1);
    if (msgs.length === 2 && wrapped?.type === 'wrapped') {
      // Out of minievm's ERC20Wrapper: the token approved to the trace's contract, then its toRemote call.
      const wrapper = getAddress(wrapped.chain.contract);
      const calls = msgs.map(({ value }: { value: any }) => ({
        contract: getAddress(value.contractAddr),
        ...decodeFunctionData({ abi: ERC20_WRAPPER, data: value.input }),
      }));
      expect(calls[0]).toEqual({
        contract: getAddress(pair.source.json.address),
        functionName: 'approve',
        args: [wrapper, BigInt(amount)],
      });
      if (first.op_init_transfer) {
        expect(calls[1]).toEqual({
          contract: wrapper,
          functionName: 'toRemoteAndOPWithdraw',
          args: [addressOn(first.op_init_transfer.to_chain_id), pair.source.base, BigInt(amount)],
        });
        return;
      }
      const to = first.transfer.to_chain_id;
      expect(calls[1]).toMatchObject({ contract: wrapper, functionName: 'toRemoteAndIBCTransfer' });
      expect(calls[1]!.args!.slice(0, 4)).toEqual([
        pair.source.base,
        BigInt(amount),
        transferChannel(fixture, pair.source.chainId, to),
        addressOn(to),
      ]);
      return;
    }
    expect(msgs).toHaveLength(1);
    const [{ typeUrl, value }] = msgs;
    if (first.transfer) {
      expect(typeUrl).toBe('/ibc.applications.transfer.v1.MsgTransfer');
      const to = first.transfer.to_chain_id;
      expect(value).toMatchObject({ sourcePort: 'transfer', token, receiver: addressOn(to) });
      expect(value.sourceChannel).toBe(transferChannel(fixture, pair.source.chainId, to));
      let forward = value.memo ? JSON.parse(value.memo).forward : undefined;
      for (const op of rest) {
        expect(forward).toMatchObject({ port: 'transfer', receiver: addressOn(op.transfer.to_chain_id) });
        expect(forward.channel).toBe(
          transferChannel(fixture, op.transfer.from_chain_id, op.transfer.to_chain_id),
        );
        forward = forward.next?.forward;
      }
      expect(forward).toBeUndefined();
    } else if (typeUrl === '/opinit.ophost.v1.MsgInitiateTokenDeposit') {
      const rollup = first.op_init_transfer.to_chain_id;
      expect(value).toMatchObject({ amount: token, to: addressOn(rollup) });
      expect(String(value.bridgeId)).toBe(bridgeOf(fixture, rollup).id);
      expect(Buffer.from(value.data).toString('base64')).toBe(hook?.hook ?? '');
    } else {
      expect(typeUrl).toBe('/opinit.opchild.v1.MsgInitiateTokenWithdrawal');
      expect(value).toMatchObject({ amount: token, to: addressOn(first.op_init_transfer.to_chain_id) });
      expect(bridgeOf(fixture, pair.source.chainId).id).toBe(first.op_init_transfer.op_init_bridge_id);
    }
  }

  it('loads every chain and asset of the snapshot; no node URL but the dead one', () => {
    expect(registry.chains.map((c) => c.chainId)).toEqual([...fixture.chains.keys()].sort());
    expect(registry.assets).toHaveLength(fixture.assets.length);
    for (const chain of registry.chains) {
      for (const url of [chain.rpc, chain.rest, chain.jsonRpc]) expect([dead, undefined]).toContain(url);
      // Every ICS-20 end towards a listed chain, fee-middleware versions included.
      const listed = (fixture.chains.get(chain.chainId).metadata.ibc_channels ?? []).filter(
        (c: any) => c.port_id === 'transfer' && fixture.chains.has(c.chain_id),
      );
      expect(chain.ibcChannels.map((c) => c.channelId).sort()).toEqual(
        listed.map((c: any) => c.channel_id).sort(),
      );
      // ICS-721 ends (`nft-transfer`, a `wasm.<ics721>` port) are NFT channels, never fungible edges. A
      // chain without CosmWasm has its end at nft-transfer, whatever contract port its chain.json lists.
      const json = fixture.chains.get(chain.chainId);
      const nft = (json.metadata.ibc_channels ?? []).filter(
        (c: any) => c.port_id !== 'transfer' && fixture.chains.has(c.chain_id),
      );
      const ownPort = (port: string) =>
        port.startsWith('wasm.') && json.metadata.minitia?.type !== 'miniwasm' ? 'nft-transfer' : port;
      expect(chain.nftChannels.map((c) => `${c.portId} ${c.channelId}`).sort()).toEqual(
        nft.map((c: any) => `${ownPort(c.port_id)} ${c.channel_id}`).sort(),
      );
    }
  });

  it('lists the chains and the assets with their origins as the traces say', async () => {
    const chains = (await call('GET', '/v2/info/chains')).json.chains;
    expect(chains.map((c: any) => c.chain_id).sort()).toEqual([...fixture.chains.keys()].sort());
    for (const chain of chains) {
      const json = fixture.chains.get(chain.chain_id);
      expect(chain).toMatchObject({
        chain_name: json.chain_name,
        rpc: dead,
        rest: dead,
        is_testnet: net !== 'mainnets',
      });
    }
    const map = (await call('GET', '/v2/fungible/assets')).json.chain_to_assets_map;
    const listed = Object.values(map).flatMap((entry: any) => entry.assets);
    expect(listed).toHaveLength(fixture.assets.length);
    for (const asset of fixture.assets) {
      const answer = map[asset.chainId].assets.find((a: any) => a.denom === asset.base);
      expect(answer, `${asset.chainId} ${asset.base}`).toMatchObject({
        symbol: asset.symbol,
        decimals: asset.decimals,
      });
      expect(`${answer.origin_chain_id} ${answer.origin_denom}`).toBe(
        fixtureOrigin(fixture, asset.chainId, asset.base),
      );
      if (answer.trace) {
        const hash = createHash('sha256').update(answer.trace).digest('hex').toUpperCase();
        expect(`ibc/${hash}`).toBe(asset.base);
      }
    }
  });

  it('routes every pair of one origin on two chains, or says why not; the msgs name what the registry names', async () => {
    const origins = new Map(fixture.assets.map((a) => [a, fixtureOrigin(fixture, a.chainId, a.base)]));
    const pairs: Pair[] = fixture.assets.flatMap((source) =>
      fixture.assets
        .filter((dest) => dest.chainId !== source.chainId && origins.get(dest) === origins.get(source))
        .map((dest) => ({ source, dest })),
    );
    const lines: string[] = [];
    const reasons = new Map<string, number>();
    for (const pair of pairs) {
      const answer = await route(pair);
      const head = `${label(pair.source)} → ${label(pair.dest)}:`;
      if (answer.status !== 200) {
        lines.push(`${head} ${answer.status} ${shortened(answer.json.message)}`);
        const reason = reasonOf(answer.json.message);
        reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
        continue;
      }
      checkOperations(answer.json.operations);
      await checkMsgs(pair, answer.json);
      const ops = answer.json.operations.map(operationWords).join(' + ');
      lines.push(
        `${head} ${ops}${answer.json.required_op_hook ? ' +hook' : ''} → ${answer.json.amount_out} in ${answer.json.estimated_route_duration_seconds} s`,
      );
    }
    // An asset with no other of its origin is still known: to the L1's INIT it is a route or a reason.
    const init = l1Init();
    const alone: string[] = [];
    for (const source of fixture.assets.filter((a) => !pairs.some((p) => p.source === a))) {
      const answer = await route({ source, dest: init });
      alone.push(
        `${label(source)}: ${answer.status} ${shortened(answer.json.message ?? 'routed to the L1 INIT')}`,
      );
    }
    const routed = pairs.length - [...reasons.values()].reduce((s, n) => s + n, 0);
    const text = [
      `# ${net}: ${fixture.chains.size} chains, ${fixture.assets.length} assets; ${pairs.length} ordered pairs of one origin on two chains: ${routed} routed, ${pairs.length - routed} answered 4xx`,
      '',
      '## 4xx by reason',
      ...[...reasons].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([r, n]) => `${n} × ${r}`),
      '',
      '## pairs',
      ...lines,
      '',
      `## alone: ${alone.length} assets with no asset of their origin on another chain`,
      ...alone,
      '',
      '## registry warnings',
      ...warnings.map((w) => w.replaceAll(REGISTRY_FIXTURES, '')),
      '',
    ].join('\n');
    await expect(text).toMatchFileSnapshot(`./__snapshots__/router-registry-real.${net}.txt`);
  });

  it('sends its chain and asset lists gzipped to a client that asks, the same JSON', async () => {
    for (const url of ['/v2/info/chains', '/v2/fungible/assets']) {
      const plain = await server.app.inject({ url });
      const gzipped = await server.app.inject({
        url,
        headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
      });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect([gzipped.statusCode, gzipped.headers['content-encoding']]).toEqual([200, 'gzip']);
      expect(String(gzipped.headers.vary)).toMatch(/accept-encoding/i);
      expect(gunzipSync(gzipped.rawPayload).toString('utf8')).toBe(plain.body);
      expect(gzipped.rawPayload.byteLength * 4).toBeLessThan(plain.rawPayload.byteLength);
    }
  });

  it('answers the same bytes when asked again', async () => {
    expect(answers.size).toBeGreaterThan(0);
    for (const [request, first] of answers) {
      const again = await call('POST', '/v2/fungible/route', JSON.parse(request));
      expect(`${again.status} ${again.body}`).toBe(first);
    }
  });

  it('knows every asset it lists: from each to the L1 INIT, a route or a reason, never "unknown"', async () => {
    const init = l1Init();
    for (const source of fixture.assets.filter((a) => a !== init)) await route({ source, dest: init });
  });
});
