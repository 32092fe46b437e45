// The public APIs the dashboard reads: each chain's indexer API and the router. Nothing else.

let config = { router: null, chains: [] };

/** An API answered with an error status, or did not answer. `message` names which and why. */
export class ApiError extends Error {
  constructor(message, status = 0) {
    super(message);
    this.status = status;
  }
}

export async function loadConfig() {
  const res = await fetch('/config.json');
  if (!res.ok) throw new ApiError(`the dashboard's /config.json answered ${res.status}`, res.status);
  config = await res.json();
  return config;
}

export const chains = () => config.chains;
export const routerUrl = () => config.router;
export const indexerUrl = (chainId) => config.chains.find((c) => c.chain_id === chainId)?.indexer_api ?? null;

async function request(base, path, { params, body, signal } = {}) {
  const url = new URL(base + path);
  for (const [k, v] of Object.entries(params ?? {}))
    if (v !== undefined && v !== '') url.searchParams.set(k, v);
  let res;
  try {
    res = await fetch(url, {
      method: body ? 'POST' : 'GET',
      headers: body ? { 'content-type': 'application/json' } : undefined,
      body: body ? JSON.stringify(body) : undefined,
      signal,
    });
  } catch (err) {
    if (err?.name === 'AbortError') throw err;
    throw new ApiError(`${url.origin} does not answer (${err?.message ?? err})`);
  }
  const json = await res.json().catch(() => undefined);
  if (!res.ok) {
    const why = json?.message ?? res.statusText;
    throw new ApiError(`${url.pathname} answered ${res.status}: ${why}`, res.status);
  }
  return json;
}

/** GET from `chainId`'s indexer API. */
export function indexer(chainId, path, params, signal) {
  const base = indexerUrl(chainId);
  if (!base) throw new ApiError(`${chainId} has no indexer API in this dashboard's configuration`);
  return request(base, path, { params, signal });
}

/** GET (or POST with `body`) to the router. */
export function router(path, { params, body, signal } = {}) {
  if (!config.router) throw new ApiError('no router is configured (set ROUTER_URL / --router-url)');
  return request(config.router, path, { params, body, signal });
}

const answers = new Map();
/** `ask()`'s answer under `key`, asked once; a failed answer is forgotten, so the next call asks again. */
function once(key, ask) {
  if (!answers.has(key)) {
    answers.set(
      key,
      (async () => ask())().catch((err) => {
        answers.delete(key);
        throw err;
      }),
    );
  }
  return answers.get(key);
}

/** The router's chains (`/v2/info/chains`), asked once; empty without a router. */
export async function routerChainList() {
  if (!config.router) return [];
  return once('chains', () =>
    router('/v2/info/chains', { params: { include_evm: 'true' } }).then((r) => r.chains),
  );
}

/** The router's assets of `chainId` (`/v2/fungible/assets`), asked once per chain. */
export function routerAssets(chainId) {
  return once(`assets ${chainId}`, () =>
    router('/v2/fungible/assets', {
      params: { chain_ids: chainId, include_evm_assets: 'true' },
    }).then((r) => r.chain_to_assets_map?.[chainId]?.assets ?? []),
  );
}

/** The Skip states that end a transfer. */
export const TERMINAL = new Set(['STATE_COMPLETED_SUCCESS', 'STATE_COMPLETED_ERROR', 'STATE_ABANDONED']);

/** A badge tone for a Skip transfer or hop state. */
export function stateTone(s = '') {
  if (/SUCCESS|RECEIVED|ACK_SUCCESS/.test(s)) return 'ok';
  if (/ERROR|FAIL|TIMEOUT|ABANDONED/.test(s)) return 'bad';
  if (/PENDING|SENT|SUBMITTED|UNKNOWN/.test(s)) return 'warn';
  return '';
}
