// One tx: the Cosmos record, and on EVM chains the receipt and the internal call tree. A 0x hash is
// looked up as an Ethereum tx. A block's receipts are minievm's: one per tx signed as an Ethereum tx
// and per other tx that logged EVM events, numbered from 1 in block order; that pairs them.
import { ApiError, indexer } from '../api.js';
import { badge, fill, fmt, h, kv, link, rawJson, short, state } from '../ui.js';
import { accountLink, blockPath, chainHeader, coinsOf, txKind, txResult, txSigner } from './common.js';

const ETH_HASH = /^0x[0-9a-fA-F]{64}$/;

/** `undefined` for a 404 (or a route the chain does not serve), the error otherwise. */
async function optional(promise) {
  try {
    return await promise;
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 400)) return undefined;
    throw err;
  }
}

/** Whether minievm gives `tx` a receipt: signed as an Ethereum tx, or successful with EVM logs. */
function hasReceipt(tx) {
  if (tx.tx?.auth_info?.signer_infos?.[0]?.mode_info?.single?.mode === 'SIGN_MODE_ETHEREUM') return true;
  return (
    tx.code === 0 &&
    (tx.events ?? []).some((e) => e.type === 'evm' && e.attributes?.some((a) => a.key === 'log'))
  );
}

/** The block's Cosmos txs that have a receipt, the receipt numbered i being the i-th. */
const withReceipts = (cosmos) => cosmos.filter(hasReceipt);

async function blockTxs(chainId, height, signal) {
  const page = { 'pagination.limit': 1000, 'pagination.reverse': 'false' };
  const [cosmos, evm] = await Promise.all([
    indexer(chainId, `/indexer/tx/v1/txs/by_height/${height}`, page, signal),
    optional(indexer(chainId, `/indexer/tx/v1/evm-txs/by_height/${height}`, page, signal)),
  ]);
  return { cosmos: cosmos.txs, evm: evm?.txs };
}

/** The Cosmos record and the EVM receipt of `hash`, whichever kind of hash it is. */
async function lookUp(chainId, hash, signal) {
  if (ETH_HASH.test(hash)) {
    const evm = await optional(indexer(chainId, `/indexer/tx/v1/evm-txs/${hash}`, undefined, signal));
    if (!evm) return {};
    const { cosmos } = await blockTxs(chainId, fmt.hexInt(evm.tx.blockNumber), signal);
    return { receipt: evm.tx, tx: withReceipts(cosmos)[fmt.hexInt(evm.tx.transactionIndex) - 1] };
  }
  const found = await optional(indexer(chainId, `/indexer/tx/v1/txs/${hash}`, undefined, signal));
  if (!found) return {};
  const { cosmos, evm } = await blockTxs(chainId, found.tx.height, signal);
  const position = withReceipts(cosmos).findIndex((t) => t.txhash === found.tx.txhash);
  const receipt =
    position < 0 ? undefined : evm?.find((r) => fmt.hexInt(r.transactionIndex) === position + 1);
  return { tx: found.tx, receipt };
}

function cosmosCard(chainId, tx, fee) {
  return h(
    'section',
    { class: 'card' },
    h('h2', {}, 'Cosmos tx'),
    kv([
      ['Hash', h('span', { class: 'mono' }, tx.txhash)],
      [
        'Result',
        h(
          'span',
          {},
          txResult(tx),
          tx.code !== 0 ? h('span', { class: 'muted' }, ` ${tx.codespace} ${tx.raw_log}`) : '',
        ),
      ],
      ['Block', link(blockPath(chainId, tx.height), fmt.int(tx.height))],
      ['Time', fmt.time(tx.timestamp)],
      ['Messages', txKind(tx)],
      ['Signer', h('span', { class: 'signer' }, accountLink(chainId, txSigner(tx)))],
      ['Gas used / wanted', `${fmt.int(tx.gas_used)} / ${fmt.int(tx.gas_wanted)}`],
      ['Fee', fee],
      tx.tx?.body?.memo ? ['Memo', h('span', { class: 'mono' }, tx.tx.body.memo)] : null,
    ]),
    rawJson('Messages', tx.tx?.body?.messages ?? []),
    rawJson(`Events (${tx.events?.length ?? 0})`, tx.events ?? []),
  );
}

function receiptCard(chainId, r) {
  const ok = r.status === '0x1';
  return h(
    'section',
    { class: 'card receipt' },
    h('h2', {}, 'EVM receipt'),
    kv([
      ['Hash', h('span', { class: 'mono' }, r.transactionHash)],
      ['Status', ok ? badge('success', 'ok') : badge('reverted', 'bad')],
      ['From', accountLink(chainId, r.from)],
      [
        'To',
        r.to
          ? accountLink(chainId, r.to)
          : h('span', {}, 'contract creation ', short(r.contractAddress ?? '')),
      ],
      ['Block · index', `${fmt.int(fmt.hexInt(r.blockNumber))} · ${fmt.hexInt(r.transactionIndex)}`],
      ['Gas used', fmt.int(fmt.hexInt(r.gasUsed))],
      ['Logs', fmt.int(r.logs?.length ?? 0)],
    ]),
    rawJson('Logs', r.logs ?? []),
  );
}

/** The internal calls as a tree, from each call's `parent_index`. */
function callTree(chainId, calls) {
  const byParent = new Map();
  const indexes = new Set(calls.map((c) => c.index));
  for (const c of [...calls].sort((a, b) => a.index - b.index)) {
    const parent = indexes.has(c.parent_index) && c.parent_index !== c.index ? c.parent_index : -1;
    if (!byParent.has(parent)) byParent.set(parent, []);
    byParent.get(parent).push(c);
  }
  const branch = (parent) =>
    h(
      'ul',
      { class: 'calls' },
      ...(byParent.get(parent) ?? []).map((c) =>
        h(
          'li',
          {},
          badge(c.type),
          ' ',
          accountLink(chainId, c.from),
          ' → ',
          accountLink(chainId, c.to),
          c.value && c.value !== '0x0'
            ? h('span', { class: 'muted' }, ` value ${fmt.int(fmt.hexInt(c.value))}`)
            : '',
          h('span', { class: 'muted' }, ` gas ${fmt.int(fmt.hexInt(c.gasUsed))}`),
          byParent.has(c.index) ? branch(c.index) : '',
        ),
      ),
    );
  return branch(-1);
}

export async function render(ctx) {
  const [chainId, hash] = ctx.params;
  fill(ctx.main, ...chainHeader(chainId, 'activity'), state('Looking the tx up…'));
  const { tx, receipt } = await lookUp(chainId, hash, ctx.signal);
  const parts = [];
  if (!tx && !receipt) {
    parts.push(
      state(
        `No tx ${hash} is indexed on ${chainId} (yet): a tx just sent shows once its block is indexed.`,
        'error',
      ),
    );
  }
  if (tx) parts.push(cosmosCard(chainId, tx, await coinsOf(chainId, tx.tx?.auth_info?.fee?.amount)));
  if (receipt) {
    parts.push(receiptCard(chainId, receipt));
    const internal = await optional(
      indexer(
        chainId,
        `/indexer/tx/v1/evm-internal-txs/${receipt.transactionHash}`,
        { 'pagination.limit': 1000 },
        ctx.signal,
      ),
    );
    parts.push(
      h(
        'section',
        { class: 'card' },
        h('h2', {}, 'Internal calls'),
        internal?.internal_txs?.length
          ? callTree(chainId, internal.internal_txs)
          : state(
              'No internal call is indexed for this tx (yet: the network page shows how far tracing lags).',
            ),
      ),
    );
  }
  fill(ctx.main, ...chainHeader(chainId, 'activity'), h('h2', {}, 'Tx'), ...parts);
}
