import { join } from 'node:path';
import { NotFoundError } from 'weft/common/errors.js';
import { writeJsonFile } from 'weft/common/json-file.js';
import { assetListJson, chainJson } from './entries.js';
import type { AssetListJson, ChainJson, RegistryChain, RegistryContribution } from './types.js';

/** The network's registry: every chain's entries plus what the parts contributed, written as a folder. */
export interface Registry {
  /** Adds a part's entries to a chain; once the folder is written, it is rewritten at once. */
  contribute(contribution: RegistryContribution): void;
  chainJsons(): ChainJson[];
  assetLists(): AssetListJson[];
  /**
   * Writes `<dir>/<chain_name>/{chain.json,assetlist.json}`, `<dir>/chains.json` (every chain.json, as
   * the registry's web service serves them) and `<dir>/_IBC/<a>-<b>.json` per pair of channel ends.
   */
  write(dir: string): void;
}

export function createRegistry(chains: readonly RegistryChain[]): Registry {
  const contributions = new Map<string, RegistryContribution[]>(chains.map((c) => [c.info.chainId, []]));
  const of = (chain: RegistryChain) => contributions.get(chain.info.chainId)!;
  // Channels and bridges may come up after the start (a handshake takes blocks): the folder follows them.
  let writtenTo: string | undefined;
  const registry: Registry = {
    contribute(contribution) {
      const list = contributions.get(contribution.chainId);
      if (!list) throw new NotFoundError(`registry: no chain ${contribution.chainId} in this network`);
      list.push(contribution);
      if (writtenTo) registry.write(writtenTo);
    },
    chainJsons: () => chains.map((c) => chainJson(c, of(c))),
    assetLists: () => chains.map((c) => assetListJson(c, of(c))),
    write(dir) {
      writtenTo = dir;
      const chainJsons = registry.chainJsons();
      const assetLists = registry.assetLists();
      for (const [i, chain] of chainJsons.entries()) {
        const folder = join(dir, chain.chain_name);
        writeJsonFile(join(folder, 'chain.json'), chain);
        writeJsonFile(join(folder, 'assetlist.json'), assetLists[i]);
      }
      writeJsonFile(join(dir, 'chains.json'), chainJsons);
      const ibc = ibcFiles(chains, contributions);
      for (const [name, json] of ibc) writeJsonFile(join(dir, '_IBC', name), json);
    },
  };
  return registry;
}

/** chain-registry `_IBC/<a>-<b>.json` files (names in alphabetical order), from channel ends that name their counterparty. */
function ibcFiles(
  chains: readonly RegistryChain[],
  contributions: Map<string, RegistryContribution[]>,
): Map<string, unknown> {
  const nameOf = new Map(chains.map((c) => [c.info.chainId, c.plan.chainName]));
  const files = new Map<string, { chain_1: object; chain_2: object; channels: object[] }>();
  for (const chain of chains) {
    for (const end of (contributions.get(chain.info.chainId) ?? []).flatMap((c) => c.ibcChannels ?? [])) {
      const other = nameOf.get(end.chain_id);
      const self = chain.plan.chainName;
      if (!end.counterparty || !other || self > other) continue;
      const key = `${self}-${other}.json`;
      const file = files.get(key) ?? {
        chain_1: { chain_name: self, ...ids(end) },
        chain_2: { chain_name: other, ...ids(end.counterparty) },
        channels: [],
      };
      file.channels.push({
        chain_1: { channel_id: end.channel_id, port_id: end.port_id },
        chain_2: { channel_id: end.counterparty.channel_id, port_id: end.counterparty.port_id },
        ordering: 'unordered',
        version: end.version,
        tags: { status: 'live', preferred: true },
      });
      files.set(key, file);
    }
  }
  return new Map([...files].map(([k, v]) => [k, { $schema: '../ibc_data.schema.json', ...v }]));
}

const ids = (end: { client_id?: string; connection_id?: string }) => ({
  ...(end.client_id ? { client_id: end.client_id } : {}),
  ...(end.connection_id ? { connection_id: end.connection_id } : {}),
});
