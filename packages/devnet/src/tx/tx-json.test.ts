import { toBase64 } from '@cosmjs/encoding';
import { Msg } from '@initia/initia.js';
import { describe, expect, it } from 'vitest';
import { codecOf, encodeAny, registeredTypeUrls } from 'weft/chain/registry.js';
import { deriveAccount } from '../keys.js';
import { decodeTx } from './codec.js';
import { signTx } from './sign.js';
import { anyToJson, type TxForJson, txToRestJson } from './tx-json.js';

const enc = new TextEncoder();
const HEIGHT = { revisionNumber: 1n, revisionHeight: 10n };
// Nanosecond timestamps are past 2^53: they must survive exactly.
const TIMEOUT_NS = 1767225600000000001n;

/** A filled-in sample of every msg type in the registry. */
const SAMPLES: Record<string, object> = {
  '/cosmos.bank.v1beta1.MsgSend': {
    fromAddress: 'init1a',
    toAddress: 'init1b',
    amount: [{ denom: 'uinit', amount: '5' }],
  },
  '/minievm.evm.v1.MsgCall': { sender: 'init1a', contractAddr: '0xab', input: '0x12', value: '3' },
  '/minievm.evm.v1.MsgCreate': { sender: 'init1a', code: '0x6080', value: '0' },
  '/initia.move.v1.MsgExecute': {
    sender: 'init1a',
    moduleAddress: '0x1',
    moduleName: 'nft',
    functionName: 'mint',
    typeArgs: ['0x1::nft::Nft'],
    args: [new Uint8Array([1, 2]), new Uint8Array()],
  },
  '/initia.move.v1.MsgExecuteJSON': {
    sender: 'init1a',
    moduleAddress: '0x1',
    moduleName: 'nft',
    functionName: 'mint',
    typeArgs: [],
    args: ['"x"', '1'],
  },
  '/cosmwasm.wasm.v1.MsgExecuteContract': {
    sender: 'init1a',
    contract: 'init1c',
    msg: enc.encode('{"mint":{"token_id":"1"}}'),
    funds: [],
  },
  '/cosmwasm.wasm.v1.MsgInstantiateContract': {
    sender: 'init1a',
    admin: '',
    codeId: 3n,
    label: 'cw721',
    msg: enc.encode('{"name":"n"}'),
    funds: [{ denom: 'uinit', amount: '1' }],
  },
  '/ibc.core.channel.v1.MsgRecvPacket': {
    packet: {
      sequence: 9_007_199_254_740_993n,
      sourcePort: 'transfer',
      sourceChannel: 'channel-0',
      destinationPort: 'transfer',
      destinationChannel: 'channel-1',
      data: enc.encode('{}'),
      timeoutHeight: HEIGHT,
      timeoutTimestamp: TIMEOUT_NS,
    },
    proofCommitment: new Uint8Array([1]),
    proofHeight: HEIGHT,
    signer: 'init1r',
  },
  '/ibc.core.channel.v1.MsgAcknowledgement': {
    packet: {
      sequence: 3n,
      sourcePort: 'transfer',
      sourceChannel: 'channel-0',
      destinationPort: 'transfer',
      destinationChannel: 'channel-1',
      data: enc.encode('{}'),
      timeoutHeight: HEIGHT,
      timeoutTimestamp: TIMEOUT_NS,
    },
    acknowledgement: enc.encode('{"result":"AQ=="}'),
    proofAcked: new Uint8Array([1]),
    proofHeight: HEIGHT,
    signer: 'init1r',
  },
  '/ibc.core.channel.v1.MsgTimeout': {
    packet: {
      sequence: 4n,
      sourcePort: 'transfer',
      sourceChannel: 'channel-0',
      destinationPort: 'transfer',
      destinationChannel: 'channel-1',
      data: enc.encode('{}'),
      timeoutHeight: HEIGHT,
      timeoutTimestamp: TIMEOUT_NS,
    },
    proofUnreceived: new Uint8Array([1]),
    proofHeight: HEIGHT,
    nextSequenceRecv: 4n,
    signer: 'init1r',
  },
  '/ibc.applications.transfer.v1.MsgTransfer': {
    sourcePort: 'transfer',
    sourceChannel: 'channel-0',
    token: { denom: 'uinit', amount: '1' },
    sender: 'init1a',
    receiver: 'init1b',
    timeoutHeight: HEIGHT,
    timeoutTimestamp: TIMEOUT_NS,
    memo: '{"wasm":{}}',
  },
  '/ibc.applications.nft_transfer.v1.MsgTransfer': {
    sourcePort: 'nft-transfer',
    sourceChannel: 'channel-4',
    classId: 'move/ab',
    tokenIds: ['1', '2'],
    sender: 'init1a',
    receiver: '0x1::nft_transfer::nft_transfer',
    timeoutHeight: HEIGHT,
    timeoutTimestamp: TIMEOUT_NS,
    memo: '{"move":{}}',
  },
  '/opinit.opchild.v1.MsgFinalizeTokenDeposit': {
    sender: 'init1a',
    from: 'init1f',
    to: 'init1t',
    amount: { denom: 'l2/abc', amount: '1' },
    sequence: 2n,
    height: 3n,
    baseDenom: 'uinit',
    data: enc.encode('hook'),
  },
  '/opinit.opchild.v1.MsgInitiateTokenWithdrawal': {
    sender: 'init1a',
    to: 'init1t',
    amount: { denom: 'l2/abc', amount: '1' },
  },
  '/opinit.ophost.v1.MsgInitiateTokenDeposit': {
    sender: 'init1a',
    bridgeId: 1n,
    to: 'init1t',
    amount: { denom: 'uinit', amount: '1' },
    data: new Uint8Array(),
  },
  '/opinit.ophost.v1.MsgProposeOutput': {
    proposer: 'init1p',
    bridgeId: 1n,
    outputIndex: 2n,
    l2BlockNumber: 30n,
    outputRoot: new Uint8Array(32).fill(1),
  },
  '/opinit.ophost.v1.MsgFinalizeTokenWithdrawal': {
    sender: 'init1a',
    bridgeId: 1n,
    outputIndex: 2n,
    withdrawalProofs: [new Uint8Array(32).fill(2)],
    from: 'init1f',
    to: 'init1t',
    sequence: 3n,
    amount: { denom: 'uinit', amount: '1' },
    version: new Uint8Array([1]),
    storageRoot: new Uint8Array(32).fill(3),
    lastBlockHash: new Uint8Array(32).fill(4),
  },
};

const snakeCase = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function signed(keyType: 'secp256k1' | 'ethsecp256k1', msg: { typeUrl: string; value: Uint8Array }) {
  const signer = deriveAccount({ seed: 'json', index: 0, keyType, prefix: 'init' });
  const raw = signTx({
    msgs: [msg],
    fee: { amount: [{ denom: 'GAS', amount: '1000' }], gasLimit: 200_000n },
    signer,
    chainId: 'minievm-1',
    accountNumber: 1n,
    sequence: 7n,
  });
  return { signer, tx: decodeTx(raw) };
}

describe('txToRestJson', () => {
  it('renders a MsgSend tx exactly as the gateway does', () => {
    const { signer, tx } = signed(
      'secp256k1',
      encodeAny('/cosmos.bank.v1beta1.MsgSend', SAMPLES['/cosmos.bank.v1beta1.MsgSend']!),
    );
    const json = txToRestJson(tx);
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
    expect(JSON.stringify(json)).toBe(
      JSON.stringify({
        body: {
          messages: [
            {
              '@type': '/cosmos.bank.v1beta1.MsgSend',
              from_address: 'init1a',
              to_address: 'init1b',
              amount: [{ denom: 'uinit', amount: '5' }],
            },
          ],
          memo: '',
          timeout_height: '0',
          extension_options: [],
          non_critical_extension_options: [],
        },
        auth_info: {
          signer_infos: [
            {
              public_key: { '@type': '/cosmos.crypto.secp256k1.PubKey', key: toBase64(signer.publicKey) },
              mode_info: { single: { mode: 'SIGN_MODE_DIRECT' } },
              sequence: '7',
            },
          ],
          fee: { amount: [{ denom: 'GAS', amount: '1000' }], gas_limit: '200000', payer: '', granter: '' },
          tip: null,
        },
        signatures: [toBase64(tx.signatures[0]!)],
      }),
    );
  });

  it('renders a MsgCall tx with the key order of the gateway', () => {
    const { signer, tx } = signed(
      'ethsecp256k1',
      encodeAny('/minievm.evm.v1.MsgCall', { sender: 'init1a', contractAddr: '0x01', input: '0xa9059cbb' }),
    );
    const json = txToRestJson(tx);
    expect(Object.keys(json)).toEqual(['body', 'auth_info', 'signatures']);
    expect(Object.keys(json.body)).toEqual([
      'messages',
      'memo',
      'timeout_height',
      'extension_options',
      'non_critical_extension_options',
    ]);
    expect(Object.keys(json.auth_info)).toEqual(['signer_infos', 'fee', 'tip']);
    expect(Object.keys(json.auth_info.signer_infos[0]!)).toEqual(['public_key', 'mode_info', 'sequence']);
    expect(Object.keys(json.auth_info.fee)).toEqual(['amount', 'gas_limit', 'payer', 'granter']);
    expect(json.body.messages).toEqual([
      {
        '@type': '/minievm.evm.v1.MsgCall',
        sender: 'init1a',
        contract_addr: '0x01',
        input: '0xa9059cbb',
        value: '0',
        access_list: [],
        auth_list: [],
      },
    ]);
    expect(Object.keys(json.body.messages[0]!)).toEqual([
      '@type',
      'sender',
      'contract_addr',
      'input',
      'value',
      'access_list',
      'auth_list',
    ]);
    expect(json.auth_info.signer_infos[0]!.public_key).toEqual({
      '@type': '/initia.crypto.v1beta1.ethsecp256k1.PubKey',
      key: toBase64(signer.publicKey),
    });
  });

  it('names SIGN_MODE_ETHEREUM and writes a missing key, a tip and extension options', () => {
    const key = encodeAny('/initia.crypto.v1beta1.ethsecp256k1.PubKey', { key: new Uint8Array(33).fill(2) });
    const tx: TxForJson = {
      body: {
        messages: [],
        memo: '{"type":2}',
        timeoutHeight: 5n,
        nonCriticalExtensionOptions: [key],
      },
      authInfo: {
        signerInfos: [
          { publicKey: key, modeInfo: { single: { mode: 9999 } }, sequence: 3n },
          { modeInfo: { single: { mode: 127 } }, sequence: 0n },
        ],
        fee: { amount: [], gasLimit: 1n, payer: 'init1p', granter: 'init1g' },
        tip: { amount: [{ denom: 'u', amount: '1' }], tipper: 'init1t' },
      },
      signatures: [new Uint8Array(65).fill(1)],
    };
    const json = txToRestJson(tx);
    expect(json.body.timeout_height).toBe('5');
    expect(json.body.extension_options).toEqual([]);
    expect(json.body.non_critical_extension_options).toEqual([
      { '@type': '/initia.crypto.v1beta1.ethsecp256k1.PubKey', key: toBase64(new Uint8Array(33).fill(2)) },
    ]);
    expect(json.auth_info.signer_infos.map((s) => [s.public_key === null, s.mode_info.single?.mode])).toEqual(
      [
        [false, 'SIGN_MODE_ETHEREUM'],
        [true, 'SIGN_MODE_LEGACY_AMINO_JSON'],
      ],
    );
    expect(json.auth_info.fee).toEqual({ amount: [], gas_limit: '1', payer: 'init1p', granter: 'init1g' });
    expect(json.auth_info.tip).toEqual({ amount: [{ denom: 'u', amount: '1' }], tipper: 'init1t' });
    expect(json.signatures).toEqual([toBase64(new Uint8Array(65).fill(1))]);
  });
});

describe('anyToJson', () => {
  it.each(registeredTypeUrls().filter((url) => !url.endsWith('.PubKey')))(
    'writes every field of %s under its proto name',
    (typeUrl) => {
      const codec = codecOf(typeUrl)!;
      const json = anyToJson(encodeAny(typeUrl, SAMPLES[typeUrl]!));
      expect(Object.keys(json)).toEqual(['@type', ...Object.keys(codec.fromPartial({})).map(snakeCase)]);
      expect(json['@type']).toBe(typeUrl);
      // Plain JSON all the way down: no undefined, bigint or bytes left.
      expect(JSON.parse(JSON.stringify(json))).toEqual(json);
      const keys = JSON.stringify(json).match(/"[A-Za-z_@]+":/g) ?? [];
      expect(keys.filter((k) => /[A-Z]/.test(k))).toEqual([]);
    },
  );

  it('agrees with @initia/initia.js where the library is right', () => {
    for (const typeUrl of [
      '/cosmos.bank.v1beta1.MsgSend',
      '/minievm.evm.v1.MsgCall',
      '/initia.move.v1.MsgExecuteJSON',
      '/cosmwasm.wasm.v1.MsgExecuteContract',
      '/opinit.opchild.v1.MsgInitiateTokenWithdrawal',
    ]) {
      const any = encodeAny(typeUrl, SAMPLES[typeUrl]!);
      expect(anyToJson(any)).toEqual(Msg.fromProto(any).toData());
    }
  });

  it('keeps 64-bit integers exact and writes them as strings', () => {
    const packet = anyToJson(
      encodeAny('/ibc.core.channel.v1.MsgRecvPacket', SAMPLES['/ibc.core.channel.v1.MsgRecvPacket']!),
    );
    expect(packet.packet).toMatchObject({
      sequence: '9007199254740993',
      timeout_timestamp: '1767225600000000001',
      timeout_height: { revision_number: '1', revision_height: '10' },
      data: 'e30=',
    });
    const transfer = anyToJson(
      encodeAny(
        '/ibc.applications.transfer.v1.MsgTransfer',
        SAMPLES['/ibc.applications.transfer.v1.MsgTransfer']!,
      ),
    );
    expect(transfer.timeout_timestamp).toBe('1767225600000000001');
  });

  it('writes bytes as base64, empty bytes as null, and wasm msgs inline', () => {
    const deposit = (typeUrl: string, data: Uint8Array) =>
      anyToJson(encodeAny(typeUrl, { ...SAMPLES[typeUrl]!, data })).data;
    expect(deposit('/opinit.opchild.v1.MsgFinalizeTokenDeposit', enc.encode('hook'))).toBe('aG9vaw==');
    expect(deposit('/opinit.opchild.v1.MsgFinalizeTokenDeposit', new Uint8Array())).toBeNull();
    expect(deposit('/opinit.ophost.v1.MsgInitiateTokenDeposit', new Uint8Array())).toBeNull();
    const move = anyToJson(encodeAny('/initia.move.v1.MsgExecute', SAMPLES['/initia.move.v1.MsgExecute']!));
    expect(move.args).toEqual(['AQI=', '']);
    const wasm = anyToJson(
      encodeAny(
        '/cosmwasm.wasm.v1.MsgInstantiateContract',
        SAMPLES['/cosmwasm.wasm.v1.MsgInstantiateContract']!,
      ),
    );
    expect(wasm).toMatchObject({
      code_id: '3',
      msg: { name: 'n' },
      funds: [{ denom: 'uinit', amount: '1' }],
    });
  });

  it('writes unset non-nullable fields as their zero values', () => {
    const transfer = anyToJson(
      encodeAny('/ibc.applications.transfer.v1.MsgTransfer', { sourcePort: 'transfer' }),
    );
    expect(transfer.token).toEqual({ denom: '', amount: '0' });
    expect(transfer.timeout_height).toEqual({ revision_number: '0', revision_height: '0' });
    const recv = anyToJson(encodeAny('/ibc.core.channel.v1.MsgRecvPacket', { signer: 'init1r' }));
    expect(recv.packet).toMatchObject({
      sequence: '0',
      data: null,
      timeout_height: { revision_height: '0' },
    });
    expect(recv.proof_height).toEqual({ revision_number: '0', revision_height: '0' });
    const call = anyToJson(encodeAny('/minievm.evm.v1.MsgCreate', { sender: 'init1a', code: '0x' }));
    expect(call.value).toBe('0');
    const withdrawal = anyToJson(encodeAny('/opinit.opchild.v1.MsgInitiateTokenWithdrawal', { sender: 'a' }));
    expect(withdrawal.amount).toEqual({ denom: '', amount: '0' });
  });

  it('keeps the bytes of a type nobody knows', () => {
    expect(anyToJson({ typeUrl: '/foo.v1.MsgBar', value: new Uint8Array([1, 2]) })).toEqual({
      '@type': '/foo.v1.MsgBar',
      value: 'AQI=',
    });
  });
});
