import { describe, expect, it } from 'vitest';
import type { TxRecord } from '../node.js';
import { parseTxQuery, QuerySyntaxError, queryFromLegacyEvents, txMatches } from './tx-query.js';

const tx = (events: TxRecord['result']['events']): TxRecord => ({
  hash: 'AB12',
  raw: '',
  index: 0,
  restTx: {} as TxRecord['restTx'],
  result: { code: 0, data: null, log: '', info: '', gas_wanted: '0', gas_used: '0', events, codespace: '' },
});

describe('parseTxQuery', () => {
  it('parses conditions joined by AND, with spaces or without', () => {
    expect(parseTxQuery("tx.height=5 AND message.sender = 'init1abc'")).toEqual([
      { key: 'tx.height', op: '=', value: 5 },
      { key: 'message.sender', op: '=', value: 'init1abc' },
    ]);
    expect(
      parseTxQuery("tx.height>=3 AND tx.height<7 AND transfer.amount CONTAINS 'umin' AND wasm.action EXISTS"),
    ).toEqual([
      { key: 'tx.height', op: '>=', value: 3 },
      { key: 'tx.height', op: '<', value: 7 },
      { key: 'transfer.amount', op: 'CONTAINS', value: 'umin' },
      { key: 'wasm.action', op: 'EXISTS' },
    ]);
  });

  it('rejects what CometBFT rejects', () => {
    for (const bad of [
      '',
      'tx.height',
      'tx.height=5 OR tx.height=6',
      "message.sender='open",
      'tx.height=5 AND',
    ]) {
      expect(() => parseTxQuery(bad), bad).toThrow(QuerySyntaxError);
    }
    expect(() => parseTxQuery(`a.b='${'x'.repeat(600)}'`)).toThrow('maximum query length exceeded');
  });

  it('quotes the values of legacy `events=` parameters except tx.height', () => {
    expect(queryFromLegacyEvents(['message.sender=init1abc', 'tx.height=5', "message.action='/x'"])).toBe(
      "message.sender='init1abc' AND tx.height=5 AND message.action='/x'",
    );
    expect(() => queryFromLegacyEvents(['message.sender'])).toThrow('should be of the format');
  });
});

describe('txMatches', () => {
  const record = tx([
    { type: 'message', attributes: [{ key: 'sender', value: 'init1abc', index: true }] },
    { type: 'transfer', attributes: [{ key: 'amount', value: '100umin', index: true }] },
    { type: 'hidden', attributes: [{ key: 'k', value: 'v', index: false }] },
  ]);

  it('matches heights, hashes and indexed event attributes', () => {
    expect(txMatches(parseTxQuery("tx.height=5 AND message.sender='init1abc'"), 5, record)).toBe(true);
    expect(txMatches(parseTxQuery('tx.height>5'), 5, record)).toBe(false);
    expect(txMatches(parseTxQuery("tx.hash='ab12'"), 5, record)).toBe(true);
    expect(txMatches(parseTxQuery("transfer.amount CONTAINS 'umin'"), 5, record)).toBe(true);
    expect(txMatches(parseTxQuery("message.sender='init1zzz'"), 5, record)).toBe(false);
    expect(txMatches(parseTxQuery('transfer.amount EXISTS'), 5, record)).toBe(true);
    expect(txMatches(parseTxQuery('coin_spent.amount EXISTS'), 5, record)).toBe(false);
  });

  it('ignores attributes that are not indexed, as the kv indexer never stored them', () => {
    expect(txMatches(parseTxQuery("hidden.k='v'"), 5, record)).toBe(false);
  });
});
