import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRegistry } from '../../registry/load.js';
import {
  alice,
  aminoTypes,
  bob,
  NFT_EVM,
  NFT_L1,
  NFT_PLAIN,
  NFT_WASM,
  protos,
  writeNftRegistry,
} from '../../test-support/nft-registry.js';
import { createRouterServer, type RouterServer } from '../server.js';

/** `POST /nft` over a registry with ICS-721 channels, answered as InterwovenKit and initia.js read it. */

let dir: string;
let server: RouterServer;

beforeAll(async () => {
  dir = writeNftRegistry();
  server = await createRouterServer({ registry: await loadRegistry(dir) });
});
afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function post(body: unknown) {
  const response = await server.app.inject({
    method: 'POST',
    url: '/nft',
    headers: { 'content-type': 'application/json', 'interwovenkit-version': '2.4.6' },
    payload: JSON.stringify(body),
  });
  expect(response.headers['content-type']).toMatch(/application\/json/);
  return { status: response.statusCode, json: response.json() };
}

/** InterwovenKit's request for an IBC-received NFT on the EVM rollup going home to the L1. */
const iwkBody = {
  from_address: alice,
  from_chain_id: NFT_EVM,
  to_address: bob,
  to_chain_id: NFT_L1,
  collection_address: '0x00000000000000000000000000000000000000fe',
  token_ids: ['origin-7'],
  object_addresses: [null],
  class_id: 'ibc/9F2E5C0B1A',
  class_trace: { path: 'nft-transfer/channel-3', base_class_id: `move/${'1'.repeat(64)}` },
};

describe('POST /nft', () => {
  it("answers {msgs: [{type, value}]} that the wallet's amino types decode and its proto registry encodes", async () => {
    const before = Date.now();
    const { status, json } = await post(iwkBody);
    expect(status).toBe(200);
    expect(json.msgs).toHaveLength(1);
    const [msg] = json.msgs;
    expect(msg.type).toBe('nft-transfer/MsgTransfer');
    expect(msg.value).toMatchObject({
      source_port: 'nft-transfer',
      source_channel: 'channel-3',
      class_id: 'ibc/9F2E5C0B1A',
      token_ids: ['origin-7'],
      sender: alice,
      receiver: bob,
    });
    const timeoutMs = Number(BigInt(msg.value.timeout_timestamp) / 1_000_000n);
    expect(timeoutMs).toBeGreaterThanOrEqual(before + 1_800_000);
    expect(timeoutMs).toBeLessThanOrEqual(Date.now() + 1_800_000);

    const decoded = aminoTypes.fromAmino(msg);
    expect(decoded.typeUrl).toBe('/ibc.applications.nft_transfer.v1.MsgTransfer');
    const bytes = protos.encode(decoded);
    expect(protos.decode({ typeUrl: decoded.typeUrl, value: bytes })).toMatchObject({
      classId: 'ibc/9F2E5C0B1A',
      tokenIds: ['origin-7'],
      sourceChannel: 'channel-3',
    });
  });

  it("takes initia.js' body (no object addresses, a number timeout) and InterwovenKit's nulls", async () => {
    const ijs = await post({
      from_address: alice,
      from_chain_id: NFT_L1,
      to_address: bob,
      to_chain_id: NFT_WASM,
      token_ids: ['a', 'b'],
      collection_address: '0x0abc',
      timeout: 120,
      ignore_blacklist: true,
    });
    expect(ijs.status).toBe(200);
    expect(ijs.json.msgs[0].value).toMatchObject({
      source_channel: 'channel-4',
      class_id: `move/${'0'.repeat(61)}abc`,
      token_ids: ['a', 'b'],
    });
    const nulls = await post({ ...iwkBody, class_trace: null, outgoing_proxy: null, timeout: '60' });
    expect(nulls.status).toBe(200);
    expect(nulls.json.msgs[0].value.source_channel).toBe('channel-2');
  });

  it("answers InterwovenKit's first request, a send within the chain (no class id), with the chain's own msgs", async () => {
    const object = `0x${'3c'.repeat(32)}`;
    const { status, json } = await post({
      from_address: alice,
      from_chain_id: NFT_L1,
      to_address: bob,
      to_chain_id: NFT_L1,
      collection_address: `0x${'4d'.repeat(32)}`,
      token_ids: ['Hero #1'],
      object_addresses: [object],
    });
    expect(status).toBe(200);
    expect(json.msgs).toHaveLength(1);
    const decoded = aminoTypes.fromAmino(json.msgs[0]);
    expect(decoded).toMatchObject({
      typeUrl: '/initia.move.v1.MsgExecute',
      value: { sender: alice, moduleAddress: '0x1', moduleName: 'object', functionName: 'transfer_call' },
    });
    expect(protos.encode(decoded).length).toBeGreaterThan(0);
  });

  it('answers 404 for an unknown chain or chains no ICS-721 channel joins, 400 naming the field for bad input', async () => {
    expect(await post({ ...iwkBody, to_chain_id: 'nope-1' })).toEqual({
      status: 404,
      json: { code: 5, message: 'chain nope-1 is not supported', details: [] },
    });
    const none = await post({ ...iwkBody, to_chain_id: NFT_PLAIN });
    expect(none).toMatchObject({ status: 404, json: { code: 5, details: [] } });
    expect(none.json.message).toContain('ICS-721');

    const required = ['from_address', 'from_chain_id', 'to_address', 'to_chain_id', 'collection_address'];
    const cases: Array<[Record<string, unknown>, string]> = [
      ...required.map((field): [Record<string, unknown>, string] => [{ [field]: undefined }, field]),
      [{ token_ids: undefined }, 'token_ids'],
      [{ token_ids: [] }, 'token_ids'],
      [{ token_ids: Array.from({ length: 31 }, (_, i) => String(i)) }, 'token_ids'],
      [{ token_ids: ['1', '1'] }, 'token_ids'],
      [{ token_ids: [''] }, 'token_ids'],
      [{ object_addresses: Array.from({ length: 31 }, () => '0x1') }, 'object_addresses'],
      [{ from_address: 'cosmos1xyz' }, 'from_address'],
      [{ to_address: '0x12' }, 'to_address'],
      [{ l1_recover_address: 'x' }, 'l1_recover_address'],
      [{ collection_address: 'zz', class_id: undefined }, 'collection_address'],
      [{ class_trace: { path: 1 } }, 'class_trace'],
      [{ timeout: 0 }, 'timeout'],
      [{ timeout: 'soon' }, 'timeout'],
      [{ timeout: -5 }, 'timeout'],
      [{ timeout: 10_000_000 }, 'timeout'],
      [{ ignore_blacklist: 'maybe' }, 'ignore_blacklist'],
    ];
    for (const [over, field] of cases) {
      const { status, json } = await post({ ...iwkBody, ...over });
      expect(status, field).toBe(400);
      expect(json).toMatchObject({ code: 3, details: [] });
      expect(json.message, JSON.stringify(over)).toContain(field);
    }
  });

  it('is described in the OpenAPI document with every request field and the msgs answer', async () => {
    const doc = (await server.app.inject('/swagger/doc.json')).json();
    const operation = doc.paths['/nft'].post;
    const request = operation.requestBody.content['application/json'].schema;
    expect(Object.keys(request.properties).sort()).toEqual(
      [
        'class_id',
        'class_trace',
        'collection_address',
        'from_address',
        'from_chain_id',
        'ignore_blacklist',
        'l1_recover_address',
        'object_addresses',
        'outgoing_proxy',
        'timeout',
        'to_address',
        'to_chain_id',
        'token_ids',
      ].sort(),
    );
    expect(request.required.sort()).toEqual(
      [
        'collection_address',
        'from_address',
        'from_chain_id',
        'to_address',
        'to_chain_id',
        'token_ids',
      ].sort(),
    );
    const answer = operation.responses['200'].content['application/json'].schema;
    expect(answer.properties.msgs.items.required.sort()).toEqual(['type', 'value']);
    expect(Object.keys(operation.responses).sort()).toEqual(['200', '400', '404', '500', '503']);
  });
});
