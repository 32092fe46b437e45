import { resolveChain } from '../../api/chain-context.js';
import { createApiServer } from '../../api/server.js';
import { toBech32 } from '../../chain/address.js';
import type { Db } from '../db.js';
import type { IndexedBlock } from '../records.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/**
 * Every tx, EVM tx and internal tx answer of the API over a store of `chain`, as `url status body`:
 * the lists both ways, by height, by account (all, signed with a msgs filter) and by hash. Two stores
 * that answer the same are the same to every client.
 */
export async function storeAnswers(db: Db, chain: IndexedBlock[]): Promise<string[]> {
  const api = await createApiServer({
    db,
    chain: await resolveChain(db, { internalTx: true }),
    cache: { enabled: false, size: 0, listTtlMs: 1000, itemTtlMs: 10_000 },
  });
  const urls: string[] = [];
  for (const family of ['txs', 'evm-txs', 'evm-internal-txs']) {
    for (const reverse of [true, false])
      urls.push(`/indexer/tx/v1/${family}?pagination.limit=1000&pagination.reverse=${reverse}`);
    for (const block of chain) urls.push(`/indexer/tx/v1/${family}/by_height/${block.height}`);
  }
  const accounts = new Set(chain.flatMap((b) => b.txs.flatMap((t) => t.accounts.map((a) => hex(a.address)))));
  for (const account of accounts) {
    const bech32 = toBech32('init', Buffer.from(account, 'hex'));
    urls.push(`/indexer/tx/v1/txs/by_account/${bech32}?pagination.limit=1000`);
    urls.push(`/indexer/tx/v1/txs/by_account/${bech32}?is_signer=true&msgs=cosmos.bank.v1beta1.MsgSend`);
    urls.push(`/indexer/tx/v1/evm-txs/by_account/${bech32}?pagination.limit=1000`);
    urls.push(`/indexer/tx/v1/evm-internal-txs/by_account/${bech32}?pagination.limit=1000`);
  }
  for (const block of chain) {
    for (const t of block.txs) urls.push(`/indexer/tx/v1/txs/${hex(t.hash).toUpperCase()}`);
    for (const t of block.evmTxs) {
      urls.push(`/indexer/tx/v1/evm-txs/0x${hex(t.hash)}`);
      urls.push(`/indexer/tx/v1/evm-internal-txs/0x${hex(t.hash)}`);
    }
  }
  try {
    const out: string[] = [];
    for (const url of urls) {
      const response = await api.app.inject({ method: 'GET', url });
      out.push(`${url} ${response.statusCode} ${response.body}`);
    }
    return out;
  } finally {
    await api.close();
  }
}
