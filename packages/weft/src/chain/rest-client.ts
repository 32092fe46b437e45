import {
  createEndpoints,
  type Endpoints,
  type EndpointsOptions,
  type HttpAnswer,
  heightSignal,
  NodeQueryError,
  NodeUnavailableError,
  parseJson,
  troubleOfStatus,
} from './endpoints.js';

/**
 * Cosmos REST (grpc-gateway JSON): a block's txs, the node's version, the VM queries the decoder needs for
 * NFT metadata, and the auth/bank state the rich list starts from. State is read at a height with the
 * `x-cosmos-block-height` header.
 */

export interface Coin {
  denom: string;
  amount: string;
}

export interface NodeInfo {
  /** Chain id (`default_node_info.network`). */
  network: string;
  /** `application_version.version`, e.g. `v1.1.0`. */
  appVersion: string;
  appName: string;
  cosmosSdkVersion: string;
}

export interface AccountEntry {
  /** bech32. */
  address: string;
  /** Set for module accounts. */
  module?: { name: string; permissions: string[] };
}

export interface EvmCallAnswer {
  /** Return data (0x hex); empty when the call failed. */
  response: string;
  /** The node's error text (`…: Reverted`), empty on success. */
  error: string;
}

export interface RestClient {
  readonly endpoints: Endpoints;
  latestHeight(signal?: AbortSignal): Promise<number>;
  nodeInfo(signal?: AbortSignal): Promise<NodeInfo>;
  /**
   * `GetBlockWithTxs`, every page: REST txs in the node's order. Pages until the count reaches
   * `expectedCount` (the raw txs of `/block`; default: the block the answer carries), falling back to
   * offsets when a node answers `next_key: null` too early.
   */
  txsOfBlock(
    height: number,
    options?: { expectedCount?: number; signal?: AbortSignal },
  ): Promise<Array<Record<string, any>>>;
  evmCall(contract: string, input: string, height: number, signal?: AbortSignal): Promise<EvmCallAnswer>;
  /** ERC20 contract of a bank denom (lowercase 0x hex), or undefined when there is none. */
  contractByDenom(denom: string, signal?: AbortSignal): Promise<string | undefined>;
  /** `{address, struct_tag, move_resource, raw_bytes}` of a Move resource at a height. */
  moveResource(
    address: string,
    structTag: string,
    height: number,
    signal?: AbortSignal,
  ): Promise<Record<string, any>>;
  /** `data` of a CosmWasm smart query at a height. */
  wasmSmart(contract: string, query: unknown, height: number, signal?: AbortSignal): Promise<unknown>;
  /** `contract_info` of a CosmWasm contract at a height. */
  wasmContractInfo(contract: string, height: number, signal?: AbortSignal): Promise<Record<string, any>>;
  /** Every account at a height, all pages. */
  accounts(height: number, signal?: AbortSignal): Promise<AccountEntry[]>;
  /** Every balance of an account at a height, all pages. */
  balances(address: string, height: number, signal?: AbortSignal): Promise<Coin[]>;
  /** `/opinit/opchild/v1/validator/{valoper}` → `validator` (`moniker`, `operator_address`, …). */
  validator(valoper: string, signal?: AbortSignal): Promise<Record<string, any>>;
  /** `GetTx` by hash → `tx_response` (code, height, timestamp, events), or undefined while the node has none. */
  txResponse(hash: string, signal?: AbortSignal): Promise<Record<string, any> | undefined>;
}

const HEIGHT_HEADER = 'x-cosmos-block-height';
/** gRPC codes that mean "try later": DeadlineExceeded, ResourceExhausted, Unavailable. */
const RETRYABLE_GRPC = new Set([4, 8, 14]);
/** minievm's placeholder sender for read-only calls (rollytics uses the same). */
const QUERY_SENDER = 'init1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqpqr5e3d';

/** A gateway answer: the JSON on 200, otherwise its `{code, message}` read for height signals. */
function readGateway(answer: HttpAnswer): any {
  if (answer.status === 200) return parseJson(answer);
  let json: any;
  try {
    json = JSON.parse(answer.body);
  } catch {
    json = undefined;
  }
  if (json && typeof json.message === 'string') {
    const signal = heightSignal(json.message);
    if (signal) throw signal;
    if (RETRYABLE_GRPC.has(json.code) || answer.status === 429 || answer.status >= 502) {
      throw (
        troubleOfStatus(answer) ?? new NodeUnavailableError(`${answer.url}: ${json.message}`, 'unavailable')
      );
    }
    throw new NodeQueryError(`${answer.url}: ${json.message}`, answer.status, json.code, json.message);
  }
  throw (
    troubleOfStatus(answer) ??
    new NodeQueryError(`${answer.url}: HTTP ${answer.status} ${answer.body.slice(0, 200)}`, answer.status)
  );
}

const heightHeaders = (height: number) => ({ [HEIGHT_HEADER]: String(height) });
const base64Url = (text: string) => Buffer.from(text).toString('base64url');

export interface RestClientOptions extends EndpointsOptions {
  /** `pagination.limit` of paged queries (default 100, as rollytics pages). */
  pageLimit?: number;
}

export function createRestClient(urls: readonly string[], options: RestClientOptions): RestClient {
  const endpoints = createEndpoints(urls, options);
  const pageLimit = options.pageLimit ?? 100;
  const get = (path: string, init: { height?: number; signal?: AbortSignal } = {}) =>
    endpoints.request(
      {
        path,
        signal: init.signal,
        headers: init.height === undefined ? undefined : heightHeaders(init.height),
      },
      readGateway,
    );

  /** Every page of a keyed list (`pagination.next_key`). */
  const allPages = async <T>(
    path: string,
    pick: (page: any) => T[],
    init: { height?: number; signal?: AbortSignal },
  ): Promise<T[]> => {
    const items: T[] = [];
    let key: string | undefined;
    const sep = path.includes('?') ? '&' : '?';
    do {
      const keyPart = key ? `&pagination.key=${encodeURIComponent(key)}` : '';
      const page = await get(`${path}${sep}pagination.limit=${pageLimit}${keyPart}`, init);
      items.push(...pick(page));
      key = page.pagination?.next_key ?? undefined;
    } while (key);
    return items;
  };

  return {
    endpoints,
    async latestHeight(signal) {
      const json = await get('/cosmos/base/tendermint/v1beta1/blocks/latest', { signal });
      return Number(json.block?.header?.height ?? json.sdk_block?.header?.height ?? 0);
    },
    async nodeInfo(signal) {
      const json = await get('/cosmos/base/tendermint/v1beta1/node_info', { signal });
      const app = json.application_version ?? {};
      return {
        network: String(json.default_node_info?.network ?? ''),
        appVersion: String(app.version ?? ''),
        appName: String(app.app_name ?? app.name ?? ''),
        cosmosSdkVersion: String(app.cosmos_sdk_version ?? ''),
      };
    },
    async txsOfBlock(height, { expectedCount, signal } = {}) {
      const txs: Array<Record<string, any>> = [];
      let want = expectedCount;
      let key: string | undefined;
      let offset: number | undefined;
      for (;;) {
        const paging = key
          ? `&pagination.key=${encodeURIComponent(key)}`
          : offset
            ? `&pagination.offset=${offset}`
            : '';
        const page = await get(
          `/cosmos/tx/v1beta1/txs/block/${height}?pagination.limit=${pageLimit}${paging}`,
          {
            signal,
          },
        );
        want ??= (page.block?.data?.txs as unknown[] | null)?.length ?? 0;
        const pageTxs = (page.txs ?? []) as Array<Record<string, any>>;
        txs.push(...pageTxs);
        if (txs.length >= want || pageTxs.length === 0) break;
        const nextKey = page.pagination?.next_key as string | null | undefined;
        const total = Number(page.pagination?.total ?? 0);
        if (nextKey) {
          key = nextKey;
          offset = undefined;
        } else if (pageTxs.length === pageLimit || txs.length < total) {
          // Some SDK versions answer `next_key: null` while more txs remain: page on by offset.
          key = undefined;
          offset = txs.length;
        } else {
          break;
        }
      }
      if (txs.length !== want) {
        throw new NodeUnavailableError(
          `txs of block ${height}: REST gave ${txs.length} txs, the block has ${want}`,
          'incomplete',
        );
      }
      return txs;
    },
    async evmCall(contract, input, height, signal) {
      const json = await endpoints.request(
        {
          method: 'POST',
          path: '/minievm/evm/v1/call',
          body: JSON.stringify({ sender: QUERY_SENDER, contract_addr: contract, input, value: '0' }),
          headers: heightHeaders(height),
          signal,
        },
        readGateway,
      );
      return { response: String(json.response ?? ''), error: String(json.error ?? '') };
    },
    async contractByDenom(denom, signal) {
      try {
        const json = await get(`/minievm/evm/v1/contracts/by_denom?denom=${encodeURIComponent(denom)}`, {
          signal,
        });
        return typeof json.address === 'string' ? json.address.toLowerCase() : undefined;
      } catch (err) {
        if (err instanceof NodeQueryError && err.httpStatus === 404) return undefined;
        throw err;
      }
    },
    async moveResource(address, structTag, height, signal) {
      const json = await get(
        `/initia/move/v1/accounts/${address}/resources/by_struct_tag?struct_tag=${encodeURIComponent(structTag)}`,
        { height, signal },
      );
      return json.resource;
    },
    async wasmSmart(contract, query, height, signal) {
      const json = await get(
        `/cosmwasm/wasm/v1/contract/${contract}/smart/${base64Url(JSON.stringify(query))}`,
        {
          height,
          signal,
        },
      );
      return json.data;
    },
    async wasmContractInfo(contract, height, signal) {
      const json = await get(`/cosmwasm/wasm/v1/contract/${contract}`, { height, signal });
      return json.contract_info;
    },
    accounts: (height, signal) =>
      allPages(
        '/cosmos/auth/v1beta1/accounts',
        (page) => ((page.accounts ?? []) as Array<Record<string, any>>).map(accountEntry),
        { height, signal },
      ),
    balances: (address, height, signal) =>
      allPages(`/cosmos/bank/v1beta1/balances/${address}`, (page) => (page.balances ?? []) as Coin[], {
        height,
        signal,
      }),
    async validator(valoper, signal) {
      const json = await get(`/opinit/opchild/v1/validator/${valoper}`, { signal });
      return json.validator;
    },
    async txResponse(hash, signal) {
      try {
        const json = await get(`/cosmos/tx/v1beta1/txs/${encodeURIComponent(hash)}`, { signal });
        return json.tx_response;
      } catch (err) {
        if (err instanceof NodeQueryError && (err.httpStatus === 404 || err.nodeCode === 5)) return undefined;
        throw err;
      }
    },
  };
}

/** An auth account `Any`: `{address}` for base accounts, `{base_account: {address}}` for module accounts. */
function accountEntry(any: Record<string, any>): AccountEntry {
  const address = String(any.address ?? any.base_account?.address ?? '');
  if (Array.isArray(any.permissions) || any.name !== undefined) {
    return { address, module: { name: String(any.name ?? ''), permissions: any.permissions ?? [] } };
  }
  return { address };
}
