import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  escrowAddressBytes,
  fullDenomPath,
  localDenom,
  parseDenomTrace,
  receivedDenom,
  senderChainIsSource,
} from './ics20.js';
import { decodeTransferData, encodeTransferData, parseAck } from './ics20-packet.js';

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest();

describe('ICS-20 denominations', () => {
  it('hashes a trace as ibc-go does (ATOM on Osmosis)', () => {
    expect(localDenom('transfer/channel-0/uatom')).toBe(
      'ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2',
    );
    expect(localDenom('uatom')).toBe('uatom');
  });

  it('splits path and base denom at the first pair whose second part is not a channel id', () => {
    expect(parseDenomTrace('transfer/channel-0/transfer/channel-12/uatom')).toEqual({
      path: 'transfer/channel-0/transfer/channel-12',
      baseDenom: 'uatom',
    });
    expect(parseDenomTrace('transfer/channel-0/gamm/pool/1')).toEqual({
      path: 'transfer/channel-0',
      baseDenom: 'gamm/pool/1',
    });
    expect(parseDenomTrace('gamm/pool/1')).toEqual({ path: '', baseDenom: 'gamm/pool/1' });
    expect(fullDenomPath(parseDenomTrace('transfer/channel-3/umin'))).toBe('transfer/channel-3/umin');
  });

  it('credits the receiver as OnRecvPacket does: a denom coming home unwound, any other as a voucher', () => {
    const route = {
      sourcePort: 'transfer',
      sourceChannel: 'channel-2',
      destinationPort: 'transfer',
      destinationChannel: 'channel-9',
    };
    // Home again: the base, even one with slashes (Initia's move/…, l2/…, evm/… denoms), or a voucher
    // when hops remain.
    expect(receivedDenom(route, 'transfer/channel-2/move/ab12')).toBe('move/ab12');
    expect(receivedDenom(route, 'transfer/channel-2/uinit')).toBe('uinit');
    expect(receivedDenom(route, 'transfer/channel-2/transfer/channel-0/uatom')).toBe(
      localDenom('transfer/channel-0/uatom'),
    );
    // Arriving: the voucher of the trace prefixed with this end.
    expect(receivedDenom(route, 'move/ab12')).toBe(localDenom('transfer/channel-9/move/ab12'));
    expect(receivedDenom(route, 'move/ab12')).toMatch(/^ibc\/[0-9A-F]{64}$/);
  });

  it('tells whether the sending chain is the source of a denom', () => {
    expect(senderChainIsSource('transfer', 'channel-0', 'umin')).toBe(true);
    expect(senderChainIsSource('transfer', 'channel-0', 'transfer/channel-0/umin')).toBe(false);
    expect(senderChainIsSource('transfer', 'channel-1', 'transfer/channel-0/umin')).toBe(true);
  });

  it('derives the escrow address from "ics20-1\\0port/channel"', () => {
    const expected = sha256(
      Buffer.concat([Buffer.from('ics20-1'), Buffer.from([0]), Buffer.from('transfer/channel-7')]),
    );
    expect(Buffer.from(escrowAddressBytes('transfer', 'channel-7'))).toEqual(expected.subarray(0, 20));
  });
});

describe('ICS-20 packet data and acknowledgements', () => {
  it('encodes with sorted keys, no empty memo and Go escaping', () => {
    const bytes = encodeTransferData({ denom: 'umin', amount: '5', sender: 'a', receiver: 'b<c>', memo: '' });
    expect(Buffer.from(bytes).toString()).toBe(
      '{"amount":"5","denom":"umin","receiver":"b\\u003cc\\u003e","sender":"a"}',
    );
    expect(decodeTransferData(bytes)).toEqual({
      denom: 'umin',
      amount: '5',
      sender: 'a',
      receiver: 'b<c>',
      memo: '',
    });
    expect(() => decodeTransferData(new TextEncoder().encode('{"amount":5}'))).toThrow();
  });

  it('reads result and error acknowledgements', () => {
    expect(parseAck(new TextEncoder().encode('{"result":"AQ=="}'))).toEqual({ success: true, value: 'AQ==' });
    expect(parseAck(new TextEncoder().encode('{"error":"ABCI code: 5: x"}'))).toEqual({
      success: false,
      value: 'ABCI code: 5: x',
    });
    expect(() => parseAck(new TextEncoder().encode('{}'))).toThrow();
  });
});
