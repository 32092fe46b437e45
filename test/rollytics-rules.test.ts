import { toBech32 } from '@cosmjs/encoding';
import { describe, expect, it } from 'vitest';
import { signerAccount } from 'weft/indexer/decode/raw-tx.js';
import { grepTxAccounts } from 'weft/indexer/decode/tx-accounts.js';
import { mockRealMsgExecTransaction } from './fixtures/real/interwoven-1/authz.fixture.js';
import { mockMsgFinalizeTokenDepositSuccess } from './fixtures/real/yominet-1/finalize-token-deposit.fixture.js';
import { loadCorpus } from './real-support/corpus.js';
import {
  accAddressFromString,
  rollyticsEvmTxRules,
  rollyticsTxRules,
  type TxResponseInput,
} from './real-support/rollytics-rules.js';

// The samples are real mainnet tx_responses from initia-labs/tx-decoder@0546258b2c9409875cd1e271c15af5ea01430aaf
// (src/tests/cosmos/move/authz.fixture.ts, src/tests/protocols/op-init/finalize-token-deposit.fixture.ts),
// vendored in test/fixtures/real/. The expected values below were read off their events by hand.

const hex = (text: string) => Buffer.from(accAddressFromString(text, 'init') ?? []).toString('hex');

describe('rollytics-rules: AccAddressFromString', () => {
  it('pads hex to 20 bytes, or 32 past 40 digits, after trimming leading zeros', () => {
    expect(hex('0x1')).toBe(`${'0'.repeat(39)}1`);
    expect(hex(`0x${'0'.repeat(24)}${'ab'.repeat(20)}`)).toBe('ab'.repeat(20));
    expect(hex(`0x${'c'.repeat(63)}`)).toBe(`0${'c'.repeat(63)}`);
    expect(hex('0xABcd')).toBe(`${'0'.repeat(36)}abcd`);
    expect(hex('')).toBe('0'.repeat(40));
    expect(accAddressFromString(`0x${'1'.repeat(65)}`, 'init')).toBeNull();
    expect(accAddressFromString('0xnothex', 'init')).toBeNull();
  });

  it('reads bech32 only with the configured prefix', () => {
    const granter = 'init1ryrg0mha5stezucvajy3mne8a74uhgmygdlnxp';
    expect(hex(granter)).toBe('190687eefda41791730cec891dcf27efabcba364');
    expect(accAddressFromString(granter, 'foo')).toBeNull();
  });
});

describe('rollytics-rules: real txs', () => {
  it('an authz MsgExec paid by a fee grant: grantee, granter, fee collector, Move addresses; only the grantee signs', () => {
    const rules = rollyticsTxRules(mockRealMsgExecTransaction as TxResponseInput, {
      prefix: 'init',
      vm: 'move',
    });
    expect(rules.signer).toBe('init1rw34mgv2y626996n2ccpl6lfctk43v7azmarvg'); // the grantee
    expect(rules.accounts).toEqual(
      expect.arrayContaining([
        'init1rw34mgv2y626996n2ccpl6lfctk43v7azmarvg', // grantee (message sender)
        'init1ryrg0mha5stezucvajy3mne8a74uhgmygdlnxp', // granter: fee granter and MsgSend's sender
        'init17xpfvakm2amg962yls6f84z3kell8c5l70rnql', // fee collector
      ]),
    );
    expect(rules.accountsHex).toEqual(
      [
        `${'0'.repeat(39)}1`, // `0x1` of the `execute` event's sender and module_addr
        '190687eefda41791730cec891dcf27efabcba364', // the granter, also as Move hex
        'f1829676db577682e944fc3493d451b67ff3e29f', // the fee collector (DepositOwnerEvent)
        '66a8cb0bfb991610dcffb8a6543ac0887c7c5405b8f985ebed6d628fe50c4686', // stores and the metadata:
        'e498fd3cd677d753de48bea10c4ebeb8ff99d8be88d442fcf156687ff3f8add7', // 32-byte Move hex in `data`
        '8e4733bdabcf7d4afc3d14f0dd46c9bf52fb0fce9e4b996c939e195b8bc891d9',
        hex('init1rw34mgv2y626996n2ccpl6lfctk43v7azmarvg'),
      ].sort(),
    );
    expect(rules.msgTypes).toEqual(['cosmos.authz.v1beta1.MsgExec']);
    expect(rules.nestedOnlyMsgTypes).toEqual(['cosmos.bank.v1beta1.MsgSend']);
    expect(rules.faStoreLookups).toEqual([
      '0x66a8cb0bfb991610dcffb8a6543ac0887c7c5405b8f985ebed6d628fe50c4686',
      '0xe498fd3cd677d753de48bea10c4ebeb8ff99d8be88d442fcf156687ff3f8add7',
    ]);
  });

  it('an EVM deposit: log addresses and topics (the mint zero address too), never a `call` `ret` value', () => {
    const rules = rollyticsTxRules(mockMsgFinalizeTokenDepositSuccess as TxResponseInput, {
      prefix: 'init',
      vm: 'evm',
    });
    expect(rules.signer).toBe('init1jaz6hxkn8cx9dxjwrjwy4v2qs2u09pf25ztcam'); // the bridge executor
    expect(rules.accountsHex).toEqual(
      expect.arrayContaining([
        '0'.repeat(40), // Transfer's `from` topic of a mint
        '41dda9c5f6937146ae4b4a6f99f37f75d5420aeb', // the token: log address and `call` contract
        '408b33ca7c2a50077999d978dd790095a80aed4e', // Transfer's `to` topic
        '4eb08d5c1b0a821303a86c7b3ac805c2793de783',
        '856ab2c9f35b9187ab3eb0fcd11dcc6160427e96',
        hex('init1z6jxlwyuwy4j3zdh08t4tzsnnvkm8g8m5f088g'), // depositor
        hex('init1gz9n8jnu9fgqw7vem9ud67gqjk5q4m2w0aejne'), // the bridge module account
      ]),
    );
    // `ret` 0x…01 (an ERC20 `true`) would read as the address 0x1: rollytics skips `ret`.
    expect(rules.accountsHex).not.toContain(`${'0'.repeat(39)}1`);
    expect(rules.msgTypes).toEqual(['opinit.opchild.v1.MsgFinalizeTokenDeposit']);
    expect(rules.faStoreLookups).toEqual([]);
  });
});

describe('rollytics-rules: synthetic cases', () => {
  const tx = (messages: Array<Record<string, unknown>>, events: TxResponseInput['events']) => ({
    ...(mockRealMsgExecTransaction as TxResponseInput),
    tx: { ...(mockRealMsgExecTransaction as TxResponseInput).tx, body: { messages } },
    events,
  });

  it('stores top-level types only, and names those nested in (nested) MsgExec', () => {
    const rules = rollyticsTxRules(
      tx(
        [
          { '@type': '/cosmos.bank.v1beta1.MsgSend' },
          {
            '@type': '/cosmos.authz.v1beta1.MsgExec',
            msgs: [
              { '@type': '/cosmos.bank.v1beta1.MsgSend' },
              {
                '@type': '/cosmos.authz.v1beta1.MsgExec',
                msgs: [{ '@type': '/initia.move.v1.MsgExecute' }],
              },
            ],
          },
        ],
        [],
      ),
      { prefix: 'init', vm: 'move' },
    );
    expect(rules.msgTypes).toEqual(['cosmos.authz.v1beta1.MsgExec', 'cosmos.bank.v1beta1.MsgSend']);
    expect(rules.nestedOnlyMsgTypes).toEqual(['initia.move.v1.MsgExecute']);
    expect(rules.accounts).toEqual([rules.signer]);
  });

  it('reads whole comma-separated pieces only, and skips `ret` wherever its event', () => {
    const address = `0x${'ab'.repeat(20)}`;
    const rules = rollyticsTxRules(
      tx(
        [{ '@type': '/cosmos.bank.v1beta1.MsgSend' }],
        [
          { type: 'call', attributes: [{ key: 'ret', value: address }] },
          { type: 'x', attributes: [{ key: 'a', value: `to ${address}` }] },
          { type: 'x', attributes: [{ key: 'b', value: `0x2,${`0x${'cd'.repeat(20)}`}` }] },
        ],
      ),
      { prefix: 'init', vm: 'wasm' },
    );
    expect(rules.accountsHex).toEqual([`${'0'.repeat(39)}2`, 'cd'.repeat(20), hex(rules.signer)].sort());
  });

  it('greps bech32 only when it is `init1…`, as rollytics hard-codes it, and decodes it with the chain prefix', () => {
    const bytes = Buffer.from('ef'.repeat(20), 'hex');
    const events = (prefix: string) => [
      { type: 'x', attributes: [{ key: 'a', value: toBech32(prefix, bytes) }] },
    ];
    const msgs = [{ '@type': '/cosmos.bank.v1beta1.MsgSend' }];
    const read = (eventPrefix: string, prefix: string) =>
      rollyticsTxRules(tx(msgs, events(eventPrefix)), { prefix, vm: 'wasm' }).accountsHex.includes(
        'ef'.repeat(20),
      );
    expect(read('init', 'init')).toBe(true);
    expect(read('foo', 'foo')).toBe(false);
    expect(read('init', 'foo')).toBe(false);
  });

  it('EVM txs: from (the signer), to, the created contract, log addresses and address topics', () => {
    const from = `0x${'11'.repeat(20)}`;
    const rules = rollyticsEvmTxRules(
      {
        from,
        to: null,
        contractAddress: `0x${'22'.repeat(20)}`,
        logs: [{ address: `0x${'33'.repeat(20)}`, topics: [`0x${'44'.repeat(32)}`, `0x${'0'.repeat(64)}`] }],
      },
      'init',
    );
    expect(rules.signer).toBe(toBech32('init', Buffer.from('11'.repeat(20), 'hex')));
    expect(rules.accounts.map(hex).sort()).toEqual([
      '0'.repeat(40),
      '11'.repeat(20),
      '22'.repeat(20),
      '33'.repeat(20),
    ]);
  });
});

describe("weft's reader against rollytics-rules", () => {
  it('lists every corpus tx under the same accounts with the same signer', async () => {
    const corpus = await loadCorpus();
    expect(corpus.length).toBeGreaterThan(0);
    for (const { response, vm } of corpus) {
      const expected = rollyticsTxRules(response as unknown as TxResponseInput, { prefix: 'init', vm });
      const key = (response as unknown as TxResponseInput).tx.auth_info.signer_infos[0]!.public_key!;
      const signer = signerAccount({ typeUrl: key['@type']!, key: Buffer.from(key.key!, 'base64') });
      const accounts = grepTxAccounts(response.events, 'init').withSigner(signer);
      const bech32 = (bytes: Uint8Array) => toBech32('init', bytes, 1023);
      expect({ tx: response.txhash, accounts: accounts.map((a) => bech32(a.address)).sort() }).toEqual({
        tx: response.txhash,
        accounts: expected.accounts,
      });
      expect(accounts.filter((a) => a.signer).map((a) => bech32(a.address))).toEqual([expected.signer]);
    }
  });
});
