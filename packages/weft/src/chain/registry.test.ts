import { describe, expect, it } from 'vitest';
import { codecOf, decodeAny, encodeAny, registeredTypeUrls, UnknownTypeUrlError } from './registry.js';

describe('registry', () => {
  it('knows every msg and key type the devnet speaks', () => {
    expect(registeredTypeUrls().sort()).toEqual(
      [
        '/cosmos.bank.v1beta1.MsgSend',
        '/minievm.evm.v1.MsgCall',
        '/minievm.evm.v1.MsgCreate',
        '/initia.move.v1.MsgExecute',
        '/initia.move.v1.MsgExecuteJSON',
        '/cosmwasm.wasm.v1.MsgExecuteContract',
        '/cosmwasm.wasm.v1.MsgInstantiateContract',
        '/ibc.applications.nft_transfer.v1.MsgTransfer',
        '/ibc.core.channel.v1.MsgRecvPacket',
        '/ibc.core.channel.v1.MsgAcknowledgement',
        '/ibc.core.channel.v1.MsgTimeout',
        '/ibc.applications.transfer.v1.MsgTransfer',
        '/opinit.opchild.v1.MsgFinalizeTokenDeposit',
        '/opinit.opchild.v1.MsgInitiateTokenWithdrawal',
        '/opinit.ophost.v1.MsgInitiateTokenDeposit',
        '/opinit.ophost.v1.MsgProposeOutput',
        '/opinit.ophost.v1.MsgFinalizeTokenWithdrawal',
        '/cosmos.crypto.secp256k1.PubKey',
        '/initia.crypto.v1beta1.ethsecp256k1.PubKey',
      ].sort(),
    );
  });

  it('round-trips messages through Any, filling defaults', () => {
    const any = encodeAny('/minievm.evm.v1.MsgCall', {
      sender: 'init1x',
      contractAddr: '0xab',
      input: '0x12',
    });
    expect(any.typeUrl).toBe('/minievm.evm.v1.MsgCall');
    expect(decodeAny(any)).toEqual({
      sender: 'init1x',
      contractAddr: '0xab',
      input: '0x12',
      value: '',
      accessList: [],
      authList: [],
    });
    const deposit = encodeAny('/opinit.ophost.v1.MsgInitiateTokenDeposit', {
      sender: 'init1a',
      bridgeId: 7n,
      to: 'init1b',
      amount: { denom: 'uinit', amount: '5' },
    });
    expect(decodeAny(deposit)).toMatchObject({ bridgeId: 7n, amount: { denom: 'uinit', amount: '5' } });
    const key = new Uint8Array(33).fill(2);
    expect(decodeAny(encodeAny('/cosmos.crypto.secp256k1.PubKey', { key }))).toEqual({ key });
  });

  it('encodes the same bytes as the raw codec', () => {
    const codec = codecOf('/cosmos.bank.v1beta1.MsgSend')!;
    const msg = { fromAddress: 'a', toAddress: 'b', amount: [{ denom: 'u', amount: '1' }] };
    expect(encodeAny('/cosmos.bank.v1beta1.MsgSend', msg).value).toEqual(
      codec.encode(codec.fromPartial(msg)),
    );
  });

  it('names the type it cannot resolve', () => {
    expect(() => decodeAny({ typeUrl: '/foo.Bar', value: new Uint8Array() })).toThrow(UnknownTypeUrlError);
    expect(() => encodeAny('/foo.Bar', {})).toThrow('unable to resolve type URL /foo.Bar');
  });
});
