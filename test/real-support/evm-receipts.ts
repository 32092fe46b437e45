import { RLP } from '@ethereumjs/rlp';
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { TxResponse } from './corpus.js';

/**
 * `eth_getBlockReceipts` entries derived from cosmos txs' `evm` events, as minievm's indexer builds them
 * for a cosmos tx that is not an Ethereum tx (initia-labs/minievm indexer/utils.go `extractEthTxInfo`,
 * `extractLogsAndContractAddr`; jsonrpc/backend/tx.go `marshalReceipt`; jsonrpc/types/tx.go
 * `NewRPCTransaction`): a successful tx with at least one `evm` log gets a fake LegacyTx whose data is
 * the cosmos tx hash, all else zero, so its sender does not recover (zero address) and `to` is null.
 */

const ZERO_ADDRESS = `0x${'00'.repeat(20)}`;
/** minievm's block hash is its own Ethereum header's, chained to the parent's: not derivable here. */
export const UNKNOWN_BLOCK_HASH = `0x${'00'.repeat(32)}`;

const hex = (n: number | bigint) => `0x${n.toString(16)}`;
const toHex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`;

/** go-ethereum's 2048-bit log bloom: three 11-bit positions of keccak256 of each address and topic. */
export function logsBloom(logs: Array<{ address: string; topics: string[] }>): string {
  const bloom = new Uint8Array(256);
  const add = (value: string) => {
    const hash = keccak_256(Buffer.from(value.slice(2), 'hex'));
    for (let i = 0; i < 6; i += 2) {
      const bit = ((hash[i]! << 8) | hash[i + 1]!) & 2047;
      bloom[256 - 1 - (bit >> 3)]! |= 1 << (bit & 7);
    }
  };
  for (const log of logs) {
    add(log.address);
    log.topics.forEach(add);
  }
  return toHex(bloom);
}

/** Hash of minievm's fake LegacyTx for a cosmos tx: rlp([0, 0, 0, nil, 0, cosmosHash, 0, 0, 0]). */
export function fakeEthTxHash(cosmosTxHash: string): string {
  const empty = new Uint8Array(0);
  const fields = [empty, empty, empty, empty, empty, Buffer.from(cosmosTxHash, 'hex'), empty, empty, empty];
  return toHex(keccak_256(RLP.encode(fields)));
}

interface EvmLog {
  address: string;
  topics: string[];
  data: string;
}

/** The logs of a tx's `evm` events (attribute `log`, JSON `{address, topics, data}`). */
export function evmLogs(response: TxResponse): EvmLog[] {
  return response.events
    .filter((event) => event.type === 'evm')
    .flatMap((event) => event.attributes.filter((a) => a.key === 'log'))
    .map((attribute) => {
      const log = JSON.parse(attribute.value) as { address: string; topics?: string[] | null; data?: string };
      return {
        // common.HexToAddress / HexToHash: lowercase, full width.
        address: `0x${log.address.slice(2).toLowerCase().padStart(40, '0')}`,
        topics: (log.topics ?? []).map((t) => `0x${t.slice(2).toLowerCase().padStart(64, '0')}`),
        data: log.data && log.data !== '0x' ? log.data.toLowerCase() : '0x',
      };
    });
}

/** Receipts of a block's cosmos txs (in block order); Ethereum-signed txs are not derivable here. */
export function deriveReceipts(height: number, responses: TxResponse[]): Record<string, unknown>[] {
  const receipts: Record<string, unknown>[] = [];
  let cumulative = 0n;
  let logIndex = 0;
  for (const response of responses) {
    const logs = evmLogs(response);
    if (response.code !== 0 || logs.length === 0) continue;
    const transactionHash = fakeEthTxHash(response.txhash);
    const transactionIndex = hex(receipts.length);
    cumulative += BigInt(response.gas_used);
    // Keys sorted: minievm marshals the receipt from a Go map.
    receipts.push({
      blockHash: UNKNOWN_BLOCK_HASH,
      blockNumber: hex(height),
      contractAddress: null,
      cumulativeGasUsed: hex(cumulative),
      effectiveGasPrice: '0x0',
      from: ZERO_ADDRESS,
      gasUsed: hex(BigInt(response.gas_used)),
      logs: logs.map((log) => ({
        ...log,
        blockNumber: hex(height),
        transactionHash,
        transactionIndex,
        blockHash: UNKNOWN_BLOCK_HASH,
        logIndex: hex(logIndex++),
        removed: false,
      })),
      logsBloom: logsBloom(logs),
      status: '0x1',
      to: null,
      transactionHash,
      transactionIndex,
      type: '0x0',
    });
  }
  return receipts;
}

/** Whether a tx was signed as an Ethereum tx (minievm converts those back, with the chain's fee params). */
export function isEthereumSigned(response: TxResponse): boolean {
  const infos = (response.tx.auth_info?.signer_infos ?? []) as Array<{
    mode_info?: { single?: { mode?: unknown } };
  }>;
  return infos.some((info) => ['9999', 'SIGN_MODE_ETHEREUM'].includes(String(info.mode_info?.single?.mode)));
}
