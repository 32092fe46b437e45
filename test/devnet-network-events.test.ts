import { Comet38Client } from '@cosmjs/tendermint-rpc';
import { createPublicClient, type Hex, http, parseAbi, toEventSelector } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Devnet, NetworkChain } from 'weft-devnet/devnet.js';
import { trafficNetwork } from 'weft-devnet/test-support/devnet.js';

/**
 * The bridge events of the full network, found where a wallet or an explorer looks for them on the chain
 * that emitted them: OPinit and the Move side of the omnichain bridge through CometBFT `/tx_search` and
 * REST `/cosmos/tx/v1beta1/txs?query=`, the EVM sides' endpoint and OFT events through `eth_getLogs`.
 * What each search must return is read from the devnet's block records (every tx whose result holds
 * the event with that attribute), after a run of seeded traffic with outputs and claims.
 */

const HEIGHT = 60;
/** The last heights are produced at a pace that lets the omnichain relayer deliver OFT packets. */
const PACED = 30;
const ENDPOINT_EVENTS = parseAbi([
  'event PacketSent(bytes encodedPayload, bytes options, address sendLibrary)',
  'event PacketVerified((uint32 srcEid, bytes32 sender, uint64 nonce) origin, address receiver, bytes32 payloadHash)',
  'event PacketDelivered((uint32 srcEid, bytes32 sender, uint64 nonce) origin, address receiver)',
  'event OFTSent(bytes32 indexed guid, uint32 dstEid, address indexed fromAddress, uint256 amountSentLD, uint256 amountReceivedLD)',
  'event OFTReceived(bytes32 indexed guid, uint32 srcEid, address indexed toAddress, uint256 amountReceivedLD)',
]);

let devnet: Devnet;

beforeAll(async () => {
  devnet = await trafficNetwork({ seed: 'network-events', accounts: 4, height: HEIGHT, paced: PACED });
}, 300_000);

afterAll(() => devnet?.close(), 60_000);

const chainById = (id: string) => devnet.all.find((c) => c.chain.info.chainId === id)!;

/** Per value of `key`, the hashes of the txs whose result holds a `type` event with it. */
function emitted(chain: NetworkChain, type: string, key: string): Map<string, string[]> {
  const byValue = new Map<string, string[]>();
  for (let h = 1; h <= chain.chain.latestHeight(); h += 1)
    for (const tx of chain.chain.getBlock(h)!.txs) {
      const values = new Set(
        tx.result.events
          .filter((e) => e.type === type)
          .flatMap((e) => (e.attributes ?? []).filter((a) => a.key === key).map((a) => a.value)),
      );
      for (const value of values) byValue.set(value, [...(byValue.get(value) ?? []), tx.hash]);
    }
  return byValue;
}

/** The hashes a query finds through CometBFT `/tx_search` and through REST `txs?query=` (every page). */
async function search(chain: NetworkChain, query: string) {
  const urls = chain.urls as { rpc: string; rest: string };
  const comet = await Comet38Client.connect(urls.rpc);
  const viaComet = (await comet.txSearchAll({ query })).txs.map((t) =>
    Buffer.from(t.hash).toString('hex').toUpperCase(),
  );
  comet.disconnect();
  const viaRest: string[] = [];
  for (let page = 1; ; page += 1) {
    const response = await fetch(
      `${urls.rest}/cosmos/tx/v1beta1/txs?query=${encodeURIComponent(query)}&limit=100&page=${page}`,
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as { tx_responses: Array<{ txhash: string }>; total: string };
    viaRest.push(...body.tx_responses.map((t) => t.txhash));
    if (viaRest.length >= Number(body.total)) break;
  }
  return { viaComet, viaRest };
}

/** Every value of `key` (at most `most`) searched as `type.key='value'`: both surfaces find exactly its txs. */
async function expectSearchable(chainId: string, type: string, key: string, most = 4) {
  const chain = chainById(chainId);
  const byValue = emitted(chain, type, key);
  expect(byValue.size, `${type} on ${chainId}`).toBeGreaterThan(0);
  for (const [value, hashes] of [...byValue].slice(0, most)) {
    const { viaComet, viaRest } = await search(chain, `${type}.${key}='${value}'`);
    expect(viaComet.sort(), `${type}.${key}='${value}' via tx_search`).toEqual([...hashes].sort());
    expect(viaRest.sort(), `${type}.${key}='${value}' via REST`).toEqual([...hashes].sort());
  }
}

describe('OPinit events of the full network', () => {
  it('finds the L1 deposits per bridge (initiate_token_deposit)', () =>
    expectSearchable('weft-l1-1', 'initiate_token_deposit', 'bridge_id'));

  it('finds the deposits finalized on every rollup (finalize_token_deposit)', async () => {
    for (const rollup of devnet.rollups)
      await expectSearchable(rollup.chain.info.chainId, 'finalize_token_deposit', 'l1_sequence', 3);
  });

  it('finds the withdrawals of every rollup (initiate_token_withdrawal)', async () => {
    for (const rollup of devnet.rollups)
      await expectSearchable(rollup.chain.info.chainId, 'initiate_token_withdrawal', 'l2_sequence', 3);
  });

  it('finds the output proposals per bridge (propose_output)', () =>
    expectSearchable('weft-l1-1', 'propose_output', 'bridge_id'));

  it('finds the claimed withdrawals per bridge (finalize_token_withdrawal)', () =>
    expectSearchable('weft-l1-1', 'finalize_token_withdrawal', 'bridge_id'));
});

describe('omnichain events of the full network', () => {
  it('finds the Move side of the L1 (PacketSent, OFTSent, PacketVerified, OFTReceived, PacketDelivered)', async () => {
    await expectSearchable('weft-l1-1', 'OFTSent', 'dstEid');
    await expectSearchable('weft-l1-1', 'OFTReceived', 'srcEid');
    await expectSearchable('weft-l1-1', 'PacketVerified', 'srcEid');
    await expectSearchable('weft-l1-1', 'PacketDelivered', 'srcEid');
    await expectSearchable('weft-l1-1', 'PacketSent', 'sendLibrary');
  });

  it('finds the endpoint and OFT logs of both EVM chains through eth_getLogs', async () => {
    const members = (
      devnet.manifest().services.omnichain as {
        members: Array<{ chain_id: string; oft: Hex; endpoint: Hex }>;
      }
    ).members;
    for (const chain of [devnet.rollups.find((c) => c.vm === 'evm')!, devnet.external.evm!]) {
      const member = members.find((m) => m.chain_id === chain.chain.info.chainId)!;
      const client = createPublicClient({ transport: http(chain.urls.jsonRpc!) });
      const receipts = Array.from(
        { length: chain.chain.latestHeight() },
        (_, i) => chain.chain.getBlock(i + 1)!.evm!.receipts,
      ).flat();
      for (const event of ENDPOINT_EVENTS) {
        const topic = toEventSelector(event);
        const expected = receipts
          .flatMap((r) => r.logs as Array<{ address: string; topics: string[]; transactionHash: string }>)
          .filter((log) => log.topics[0] === topic)
          .map((log) => `${log.address.toLowerCase()}|${log.transactionHash.toLowerCase()}`);
        expect(expected.length, `${event.name} on ${chain.chain.info.chainId}`).toBeGreaterThan(0);
        const address = event.name.startsWith('OFT') ? member.oft : member.endpoint;
        const logs = await client.getLogs({ address, event, fromBlock: 1n, toBlock: 'latest' });
        expect(
          logs.map((log) => `${log.address.toLowerCase()}|${log.transactionHash.toLowerCase()}`),
          `${event.name} on ${chain.chain.info.chainId}`,
        ).toEqual(expected);
      }
    }
  });
});
