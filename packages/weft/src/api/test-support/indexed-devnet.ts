import type { Devnet, DevnetChain } from 'weft-devnet/devnet.js';
import { testDevnet } from 'weft-devnet/test-support/devnet.js';
import type { VmType } from 'weft-devnet/types.js';
import { type Logger, silentLogger } from '../../common/logger.js';
import { loadIndexerConfig } from '../../indexer/config.js';
import { createIndexer } from '../../indexer/indexer.js';
import type { Db } from '../../store/db.js';

/** A devnet of one VM that has produced `blocks` blocks and stopped (so an index of it can be complete). */
export async function producedDevnet(
  vm: VmType,
  blocks: number,
  seed = 'api-test',
): Promise<{ devnet: Devnet; chain: DevnetChain }> {
  const devnet = await testDevnet({
    seed,
    vms: [vm],
    accounts: 8,
    txsPerBlock: 8,
  });
  await devnet.fastForward(blocks);
  return { devnet, chain: devnet.chains[0]! };
}

/**
 * Indexes the whole chain into `db` with the real indexer (through the chain's RPC, REST and
 * JSON-RPC), and returns once blocks and, on EVM, internal txs and the rich list reach its head.
 */
export async function indexChain(chain: DevnetChain, db: Db, logger: Logger = silentLogger()): Promise<void> {
  const head = chain.chain.latestHeight();
  const config = loadIndexerConfig({
    argv: [],
    env: {
      CHAIN_ID: chain.chain.info.chainId,
      VM_TYPE: chain.vm,
      BECH32_PREFIX: chain.chain.info.bech32Prefix,
      RPC_URL: chain.urls.rpc,
      REST_URL: chain.urls.rest,
      JSON_RPC_URL: chain.urls.jsonRpc ?? '',
      POLL_INTERVAL: '50',
    },
  });
  const indexer = createIndexer(config, { logger, db });
  const stop = new AbortController();
  const running = indexer.run(stop.signal);
  const wanted = chain.vm === 'evm' ? ['block', 'internal_tx', 'rich_list'] : ['block'];
  const deadline = Date.now() + 90_000;
  let failed: unknown;
  running.catch((err: unknown) => {
    failed = err;
  });
  try {
    for (;;) {
      if (failed) throw failed;
      const rows = await db
        .query<{ name: string; height: string }>('SELECT name, height FROM progress')
        .catch(() => [] as Array<{ name: string; height: string }>);
      const heights = new Map(rows.map((r) => [r.name, Number(r.height)]));
      if (wanted.every((name) => (heights.get(name) ?? 0) >= head)) return;
      if (Date.now() > deadline)
        throw new Error(`indexing did not reach height ${head}: ${JSON.stringify([...heights])}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    stop.abort();
    await running.catch(() => undefined);
  }
}
