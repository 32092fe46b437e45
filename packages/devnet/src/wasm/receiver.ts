import { type Contract, ContractError, fields, parseError, parseVariant } from './contract.js';

/**
 * cw721-receiver-tester (cw-nfts): a contract `send_nft` can target. Its inner msg is `"succeed"` or `"fail"`;
 * it answers no queries, so it is also the devnet's non-NFT contract.
 */

const EXECUTE_TYPE = 'cw721_receiver_tester::msg::ExecuteMsg';
const INNER_TYPE = 'cw721_receiver_tester::msg::InnerMsg';
const QUERY_TYPE = 'cw721_receiver_tester::msg::QueryMsg';

/** base64 of the inner msgs the receiver understands. */
export const RECEIVER_SUCCEED = Buffer.from('"succeed"').toString('base64');
export const RECEIVER_FAIL = Buffer.from('"fail"').toString('base64');

export function createReceiverContract(): Contract {
  return {
    instantiateType: 'cw721_receiver_tester::msg::InstantiateMsg',
    executeType: EXECUTE_TYPE,
    queryType: QUERY_TYPE,
    instantiate: () => ({ attributes: [], messages: [] }),
    execute(_store, _base, _env, _sender, msg) {
      const [, body] = parseVariant(EXECUTE_TYPE, { receive_nft: ['sender', 'token_id', 'msg'] }, msg);
      const f = fields(EXECUTE_TYPE, body);
      const sender = f.string('sender');
      const tokenId = f.string('token_id');
      const inner = f.string('msg');
      let decoded: unknown;
      try {
        decoded = JSON.parse(Buffer.from(inner, 'base64').toString('utf8'));
      } catch {
        throw parseError(INNER_TYPE, 'Invalid type');
      }
      const [variant] = parseVariant(INNER_TYPE, { succeed: [], fail: [] }, decoded);
      if (variant === 'fail') throw new ContractError('I failed because you asked me to do so');
      return {
        attributes: [
          ['action', 'receive_nft'],
          ['token_id', tokenId],
          ['sender', sender],
          ['msg', inner],
        ],
        messages: [],
      };
    },
    query(_state, _base, _env, msg) {
      parseVariant(QUERY_TYPE, {}, msg);
      return null;
    },
  };
}
