import { bytesToHex, fromBech32 } from 'weft/chain/address.js';
import type { StateReader, StateStore } from '../state/store.js';
import {
  type Contract,
  type ContractEnv,
  ContractError,
  denyUnknownFields,
  fields,
  parseError,
  parseVariant,
} from './contract.js';

/**
 * cw721-base (v0.16 line, `Extension = Option<Empty>`) with the `token_uri` mint attribute Initia's build adds:
 * the same authorization rules, response attributes, errors and query responses.
 */

const EXTENSION = 'core::option::Option<cosmwasm_std::results::empty::Empty>';
const EMPTY = 'cosmwasm_std::results::empty::Empty';
const TOKEN_INFO_TYPE = `cw721_base::state::TokenInfo<${EXTENSION}>`;

/** `ExecuteMsg` and `QueryMsg` variants with their fields, in declaration order. */
const EXECUTE_SCHEMA = {
  transfer_nft: ['recipient', 'token_id'],
  send_nft: ['contract', 'token_id', 'msg'],
  approve: ['spender', 'token_id', 'expires'],
  revoke: ['spender', 'token_id'],
  approve_all: ['operator', 'expires'],
  revoke_all: ['operator'],
  mint: ['token_id', 'owner', 'token_uri', 'extension'],
  burn: ['token_id'],
  extension: ['msg'],
} as const;
const QUERY_SCHEMA = {
  owner_of: ['token_id', 'include_expired'],
  approval: ['token_id', 'spender', 'include_expired'],
  approvals: ['token_id', 'include_expired'],
  all_operators: ['owner', 'include_expired', 'start_after', 'limit'],
  num_tokens: [],
  contract_info: [],
  nft_info: ['token_id'],
  all_nft_info: ['token_id', 'include_expired'],
  tokens: ['owner', 'start_after', 'limit'],
  all_tokens: ['start_after', 'limit'],
  minter: [],
  extension: ['msg'],
} as const;

const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 100;

/** `cw_utils::Expiration` in its JSON form. */
export type Expiration = { never: Record<string, never> } | { at_height: number } | { at_time: string };

interface Approval {
  spender: string;
  expires: Expiration;
}

interface TokenInfo {
  owner: string;
  approvals: Approval[];
  token_uri: string | null;
  extension: null;
}

interface CollectionInfo {
  name: string;
  symbol: string;
  minter: string;
}

const unauthorized = () => new ContractError('Unauthorized');
const notFound = (kind: string) => new ContractError(`${kind} not found`);

function isExpired(e: Expiration, env: ContractEnv): boolean {
  if ('at_height' in e) return env.height >= e.at_height;
  if ('at_time' in e) return env.timeNanos >= BigInt(e.at_time);
  return false;
}

function parseExpiration(typeName: string, v: unknown): Expiration {
  if (v === undefined || v === null) return { never: {} };
  const [kind, body] =
    typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 1
      ? Object.entries(v)[0]!
      : ['', v];
  if (kind === 'never') return { never: {} };
  if (kind === 'at_height' && typeof body === 'number') return { at_height: body };
  if (kind === 'at_time' && typeof body === 'string' && /^\d+$/.test(body)) return { at_time: body };
  throw parseError(typeName, 'Invalid type');
}

/** The contract's storage, under its own key prefix. */
function storage(base: string) {
  const tokenKey = (id: string) => `${base}/token/${encodeURIComponent(id)}`;
  const hex = (address: string) => bytesToHex(fromBech32(address).bytes);
  const operatorKey = (owner: string, operator: string) => `${base}/operator/${hex(owner)}/${hex(operator)}`;
  const read = <T>(state: StateReader, key: string): T | undefined => {
    const raw = state.get(key);
    return raw === undefined ? undefined : (JSON.parse(raw) as T);
  };
  return {
    info: (state: StateReader) => read<CollectionInfo>(state, `${base}/info`)!,
    setInfo: (store: StateStore, info: CollectionInfo) => store.set(`${base}/info`, JSON.stringify(info)),
    count: (state: StateReader) => Number(state.get(`${base}/count`) ?? '0'),
    setCount: (store: StateStore, n: number) => store.set(`${base}/count`, String(n)),
    token: (state: StateReader, id: string) => read<TokenInfo>(state, tokenKey(id)),
    setToken: (store: StateStore, id: string, token: TokenInfo | undefined) =>
      store.set(tokenKey(id), token && JSON.stringify(token)),
    /** Token ids in key order, as cw-storage-plus ranges over them. */
    tokenIds: (state: StateReader) =>
      state
        .group(`${base}/token`)
        .map((k) => decodeURIComponent(k.slice(base.length + 7)))
        .sort(byteOrder),
    operator: (state: StateReader, owner: string, operator: string) =>
      read<Approval>(state, operatorKey(owner, operator))?.expires,
    setOperator: (store: StateStore, owner: string, operator: string, expires: Expiration | undefined) =>
      store.set(operatorKey(owner, operator), expires && JSON.stringify({ spender: operator, expires })),
    /** Operator grants of an owner, ordered by operator address bytes. */
    operators: (state: StateReader, owner: string) =>
      state.group(`${base}/operator/${hex(owner)}`).map((k) => read<Approval>(state, k)!),
  };
}

const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

function page<T>(
  items: T[],
  key: (item: T) => string,
  startAfter: string | undefined,
  limit: number | undefined,
): T[] {
  const from =
    startAfter === undefined ? items : items.filter((item) => byteOrder(key(item), startAfter) > 0);
  return from.slice(0, Math.min(limit ?? DEFAULT_LIMIT, MAX_LIMIT));
}
const same = (id: string) => id;

export function createCw721Contract(): Contract {
  const executeType = `cw721_base::msg::ExecuteMsg<${EXTENSION}, ${EMPTY}>`;
  const queryType = `cw721_base::msg::QueryMsg<${EMPTY}>`;
  const instantiateType = 'cw721_base::msg::InstantiateMsg';

  const canSend = (state: StateReader, base: string, env: ContractEnv, token: TokenInfo, sender: string) => {
    if (token.owner === sender) return;
    if (token.approvals.some((a) => a.spender === sender && !isExpired(a.expires, env))) return;
    const op = storage(base).operator(state, token.owner, sender);
    if (!op || isExpired(op, env)) throw unauthorized();
  };
  const canApprove = (
    state: StateReader,
    base: string,
    env: ContractEnv,
    token: TokenInfo,
    sender: string,
  ) => {
    if (token.owner === sender) return;
    const op = storage(base).operator(state, token.owner, sender);
    if (!op || isExpired(op, env)) throw unauthorized();
  };
  const loadToken = (state: StateReader, base: string, id: string) => {
    const token = storage(base).token(state, id);
    if (!token) throw notFound(TOKEN_INFO_TYPE);
    return token;
  };
  const approvalsView = (token: TokenInfo, env: ContractEnv, includeExpired: boolean | undefined) =>
    token.approvals.filter((a) => includeExpired || !isExpired(a.expires, env));

  return {
    instantiateType,
    executeType,
    queryType,

    instantiate(store, base, env, _sender, msg) {
      if (typeof msg !== 'object' || msg === null || Array.isArray(msg))
        throw parseError(instantiateType, 'Invalid type');
      denyUnknownFields(instantiateType, msg as Record<string, unknown>, ['name', 'symbol', 'minter']);
      const f = fields(instantiateType, msg as Record<string, unknown>);
      const name = f.string('name');
      const symbol = f.string('symbol');
      const minter = env.validateAddress(f.string('minter'));
      storage(base).setInfo(store, { name, symbol, minter });
      return { attributes: [], messages: [] };
    },

    execute(store, base, env, sender, msg) {
      const [variant, body] = parseVariant(executeType, EXECUTE_SCHEMA, msg);
      const f = fields(executeType, body);
      const s = storage(base);
      switch (variant) {
        case 'mint': {
          const tokenId = f.string('token_id');
          const owner = f.string('owner');
          const tokenUri = f.optionalString('token_uri');
          if (sender !== s.info(store).minter) throw unauthorized();
          env.validateAddress(owner);
          if (s.token(store, tokenId)) throw new ContractError('token_id already claimed');
          s.setToken(store, tokenId, { owner, approvals: [], token_uri: tokenUri ?? null, extension: null });
          s.setCount(store, s.count(store) + 1);
          const attributes: Array<[string, string]> = [
            ['action', 'mint'],
            ['minter', sender],
            ['owner', owner],
            ['token_id', tokenId],
          ];
          if (tokenUri !== undefined) attributes.push(['token_uri', tokenUri]);
          return { attributes, messages: [] };
        }
        case 'transfer_nft':
        case 'send_nft': {
          const recipient = f.string(variant === 'send_nft' ? 'contract' : 'recipient');
          const tokenId = f.string('token_id');
          const inner = variant === 'send_nft' ? f.string('msg') : undefined;
          const token = loadToken(store, base, tokenId);
          canSend(store, base, env, token, sender);
          s.setToken(store, tokenId, { ...token, owner: env.validateAddress(recipient), approvals: [] });
          const attributes: Array<[string, string]> = [
            ['action', variant],
            ['sender', sender],
            ['recipient', recipient],
            ['token_id', tokenId],
          ];
          const messages =
            inner === undefined
              ? []
              : [{ contract: recipient, msg: { receive_nft: { sender, token_id: tokenId, msg: inner } } }];
          return { attributes, messages };
        }
        case 'approve':
        case 'revoke': {
          const spender = f.string('spender');
          const tokenId = f.string('token_id');
          const token = loadToken(store, base, tokenId);
          canApprove(store, base, env, token, sender);
          env.validateAddress(spender);
          const approvals = token.approvals.filter((a) => a.spender !== spender);
          if (variant === 'approve') {
            const expires = parseExpiration(executeType, f.any('expires'));
            if (isExpired(expires, env))
              throw new ContractError('Cannot set approval that is already expired');
            approvals.push({ spender, expires });
          }
          s.setToken(store, tokenId, { ...token, approvals });
          return {
            attributes: [
              ['action', variant],
              ['sender', sender],
              ['spender', spender],
              ['token_id', tokenId],
            ],
            messages: [],
          };
        }
        case 'approve_all':
        case 'revoke_all': {
          const operator = f.string('operator');
          if (variant === 'approve_all') {
            const expires = parseExpiration(executeType, f.any('expires'));
            if (isExpired(expires, env))
              throw new ContractError('Cannot set approval that is already expired');
            s.setOperator(store, sender, env.validateAddress(operator), expires);
          } else s.setOperator(store, sender, env.validateAddress(operator), undefined);
          return {
            attributes: [
              ['action', variant],
              ['sender', sender],
              ['operator', operator],
            ],
            messages: [],
          };
        }
        case 'burn': {
          const tokenId = f.string('token_id');
          const token = loadToken(store, base, tokenId);
          canSend(store, base, env, token, sender);
          s.setToken(store, tokenId, undefined);
          s.setCount(store, s.count(store) - 1);
          return {
            attributes: [
              ['action', 'burn'],
              ['sender', sender],
              ['token_id', tokenId],
            ],
            messages: [],
          };
        }
        default:
          return { attributes: [], messages: [] };
      }
    },

    query(state, base, env, msg) {
      const [variant, body] = parseVariant(queryType, QUERY_SCHEMA, msg);
      const f = fields(queryType, body);
      const s = storage(base);
      switch (variant) {
        case 'contract_info': {
          const { name, symbol } = s.info(state);
          return { name, symbol };
        }
        case 'num_tokens':
          return { count: s.count(state) };
        case 'minter':
          return { minter: s.info(state).minter };
        case 'nft_info': {
          const token = loadToken(state, base, f.string('token_id'));
          return { token_uri: token.token_uri, extension: token.extension };
        }
        case 'owner_of': {
          const token = loadToken(state, base, f.string('token_id'));
          return {
            owner: token.owner,
            approvals: approvalsView(token, env, f.optionalBool('include_expired')),
          };
        }
        case 'all_nft_info': {
          const token = loadToken(state, base, f.string('token_id'));
          return {
            access: {
              owner: token.owner,
              approvals: approvalsView(token, env, f.optionalBool('include_expired')),
            },
            info: { token_uri: token.token_uri, extension: token.extension },
          };
        }
        case 'approvals': {
          const token = loadToken(state, base, f.string('token_id'));
          return { approvals: approvalsView(token, env, f.optionalBool('include_expired')) };
        }
        case 'approval': {
          const token = loadToken(state, base, f.string('token_id'));
          const spender = f.string('spender');
          if (token.owner === spender) return { approval: { spender, expires: { never: {} } } };
          const found = approvalsView(token, env, f.optionalBool('include_expired')).find(
            (a) => a.spender === spender,
          );
          if (!found) throw notFound('Approval not found');
          return { approval: found };
        }
        case 'all_operators': {
          const owner = env.validateAddress(f.string('owner'));
          const includeExpired = f.optionalBool('include_expired');
          const startAfter = f.optionalString('start_after');
          const live = s.operators(state, owner).filter((a) => includeExpired || !isExpired(a.expires, env));
          const after =
            startAfter === undefined
              ? undefined
              : bytesToHex(fromBech32(env.validateAddress(startAfter)).bytes);
          const operators = page(
            live,
            (a) => bytesToHex(fromBech32(a.spender).bytes),
            after,
            f.optionalNumber('limit'),
          );
          return { operators };
        }
        case 'tokens': {
          const owner = env.validateAddress(f.string('owner'));
          const owned = s.tokenIds(state).filter((id) => s.token(state, id)!.owner === owner);
          return { tokens: page(owned, same, f.optionalString('start_after'), f.optionalNumber('limit')) };
        }
        case 'all_tokens':
          return {
            tokens: page(s.tokenIds(state), same, f.optionalString('start_after'), f.optionalNumber('limit')),
          };
        default:
          return null;
      }
    },
  };
}
