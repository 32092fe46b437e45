import { describe, expect, it } from 'vitest';
// @ts-expect-error the dashboard's pages are browser modules in plain JavaScript, without types
import { txSigner } from '../packages/weft/src/dashboard/web/pages/common.js';

/** A tx as the indexer API returns it, with `messages` as its body's msgs (REST JSON). */
const txOf = (...messages: Array<Record<string, unknown>>) => ({ tx: { body: { messages } } });

describe('txSigner', () => {
  it("names the first msg's signer by the field its msg type signs with", () => {
    const cases: Array<[Record<string, unknown>, string | undefined]> = [
      [
        { '@type': '/cosmos.bank.v1beta1.MsgSend', from_address: 'init1from', to_address: 'init1to' },
        'init1from',
      ],
      [{ '@type': '/initia.move.v1.MsgExecute', sender: 'init1sender' }, 'init1sender'],
      [{ '@type': '/ibc.core.channel.v1.MsgRecvPacket', signer: 'init1relayer' }, 'init1relayer'],
      [
        { '@type': '/opinit.ophost.v1.MsgProposeOutput', proposer: 'init1proposer', bridge_id: '1' },
        'init1proposer',
      ],
      [{ '@type': '/cosmos.gov.v1.MsgVote', voter: 'init1voter', proposal_id: '1' }, 'init1voter'],
      [
        { '@type': '/cosmos.authz.v1beta1.MsgGrant', granter: 'init1granter', grantee: 'init1grantee' },
        'init1granter',
      ],
      [{ '@type': '/cosmos.authz.v1beta1.MsgExec', grantee: 'init1grantee', msgs: [] }, 'init1grantee'],
      [{ '@type': '/some.module.MsgUnknown', relayer_of_sorts: 'init1x' }, undefined],
    ];
    for (const [msg, signer] of cases) expect(txSigner(txOf(msg)), String(msg['@type'])).toBe(signer);
    expect(txSigner(txOf())).toBeUndefined();
  });
});
