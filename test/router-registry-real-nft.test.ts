import { AminoTypes } from '@cosmjs/stargate';
import { aminoConverters } from '@initia/amino-converter';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromBech32, toBech32 } from 'weft/chain/address.js';
import { bcsReader } from 'weft/chain/bcs.js';
import { createRouterServer, type RouterServer } from 'weft/router/api/server.js';
import { loadRegistry } from 'weft/router/registry/load.js';
import { deadUrl, readFixture } from './router-registry-real-support.js';

/**
 * `POST /nft` on the real initia-registry, as InterwovenKit's NFT send asks it: between every two chains
 * with ICS-721 channels a native collection is sent over the channel the registry names, straight to or
 * from the L1, and between two rollups to the L1's `0x1::nft_transfer` hook, which sends it on over the
 * L1's channel to the destination. Every msg decodes with the Initia amino types.
 */

const aminoTypes = new AminoTypes(aminoConverters);
const ACCOUNT = Uint8Array.from({ length: 20 }, (_, i) => i + 11);
const HOOK = '0x1::nft_transfer::nft_transfer';

const vmOf = (chain: any): string => (chain.metadata?.is_l1 ? 'minimove' : chain.metadata?.minitia?.type);
const ics721Ends = (chain: any): any[] =>
  (chain.metadata?.ibc_channels ?? []).filter((c: any) =>
    JSON.stringify(c.version ?? '').includes('ics721-1'),
  );

describe.each(['mainnets', 'testnets'])('NFT sends on the real initia-registry: %s', (net) => {
  const fixture = readFixture(net);
  let server: RouterServer;

  beforeAll(async () => {
    const dead = await deadUrl();
    const overrides = Object.fromEntries(
      [...fixture.chains.keys()].map((id) => [id, { rpc: dead, rest: dead, jsonRpc: dead }]),
    );
    const registry = await loadRegistry(fixture.dir, overrides, { logger: pino({ level: 'silent' }) });
    server = await createRouterServer({ registry, nodeTimeoutMs: 1000 });
  });
  afterAll(() => server?.close());

  /** A native collection of the source chain, in the request InterwovenKit builds for it. */
  function request(from: any, to: any) {
    const vm = vmOf(from);
    const collection =
      vm === 'minievm'
        ? `0x${'c0'.repeat(20)}`
        : vm === 'miniwasm'
          ? toBech32(from.bech32_prefix, new Uint8Array(32).fill(0xc0))
          : `0x${'c0'.repeat(32)}`;
    return {
      from_address: toBech32(from.bech32_prefix, ACCOUNT),
      from_chain_id: from.chain_id,
      to_address: toBech32(to.bech32_prefix, ACCOUNT),
      to_chain_id: to.chain_id,
      collection_address: collection,
      token_ids: ['1'],
      ...(vm === 'miniwasm' ? { class_id: collection } : {}),
    };
  }

  it('sends between every two chains with ICS-721 channels over the channels the registry names', async () => {
    const chains = [...fixture.chains.values()].filter((c) => ics721Ends(c).length > 0);
    const l1 = chains.find((c) => c.metadata?.is_l1);
    const endOf = (from: any, to: any) => ics721Ends(from).find((c: any) => c.chain_id === to.chain_id);
    const lines: string[] = [];
    for (const from of chains)
      for (const to of chains) {
        if (from === to) continue;
        const answer = await server.app.inject({ method: 'POST', url: '/nft', payload: request(from, to) });
        expect(answer.statusCode, answer.body).toBe(200);
        const msgs = answer.json().msgs as Array<{ type: string; value: any }>;
        const decoded = msgs.map((m) => aminoTypes.fromAmino(m as never));
        expect(decoded).toHaveLength(1);
        const viaL1 = !from.metadata?.is_l1 && !to.metadata?.is_l1;
        const next = viaL1 ? l1 : to;
        const end = endOf(from, next);
        let first: { port: string; channel: string; receiver: string; memo: string };
        if (vmOf(from) === 'miniwasm') {
          const { msg, contract } = decoded[0]!.value;
          const send = JSON.parse(Buffer.from(msg).toString()).send_nft;
          expect(contract).toBe(request(from, to).collection_address);
          const outgoing = JSON.parse(Buffer.from(send.msg, 'base64').toString());
          first = { port: `wasm.${send.contract}`, channel: outgoing.channel_id, ...outgoing };
          first.memo ??= '';
        } else {
          const v = decoded[0]!.value;
          first = { port: v.sourcePort, channel: v.sourceChannel, receiver: v.receiver, memo: v.memo };
        }
        // A chain without CosmWasm sends from its nft-transfer module, whatever port the registry lists.
        expect(first).toMatchObject({
          port: vmOf(from) === 'miniwasm' ? end.port_id : 'nft-transfer',
          channel: end.channel_id,
          receiver: viaL1 ? HOOK : request(from, to).to_address,
        });
        let line = `${from.chain_id} → ${to.chain_id}: ${first.port}/${first.channel}`;
        if (viaL1) {
          const args = JSON.parse(first.memo).move.message.args.map((a: string) =>
            bcsReader(Buffer.from(a, 'base64')),
          );
          const [receiver, port, channel] = [args[1].string(), args[4].string(), args[5].string()];
          expect(fromBech32(receiver).prefix).toBe(to.bech32_prefix);
          expect({ port, channel }).toEqual({ port: 'nft-transfer', channel: endOf(l1, to).channel_id });
          line += ` → ${l1.chain_id} hook → ${port}/${channel}`;
        } else expect(first.memo).toBe('');
        lines.push(line);
      }
    const text = [
      `# ${net}: ${chains.length} chains with ICS-721 channels, ${lines.length} ordered pairs`,
      ...lines,
      '',
    ];
    await expect(text.join('\n')).toMatchFileSnapshot(`./__snapshots__/router-registry-real-nft.${net}.txt`);
  });
});
