import type { IndexedEvmTx } from '../../store/records.js';
import { accAddressFromString, hexToBytesPadded } from './account-address.js';
import { createAccountList } from './tx-accounts.js';

/**
 * `eth_getBlockReceipts` entries as rollytics keeps them (`types.EvmTx`): only its keys, in its order, with
 * Go's zero values for what is missing (a null `to` becomes `""`, absent `logs`/`topics` stay null).
 */

const PADDED_TOPIC = '0x000000000000000000000000';

const text = (value: unknown) => (typeof value === 'string' ? value : '');

function logRecord(log: Record<string, any>): Record<string, unknown> {
  return {
    address: text(log.address),
    topics: Array.isArray(log.topics) ? log.topics : null,
    data: text(log.data),
    blockNumber: text(log.blockNumber),
    transactionHash: text(log.transactionHash),
    transactionIndex: text(log.transactionIndex),
    blockHash: text(log.blockHash),
    logIndex: text(log.logIndex),
    removed: log.removed === true,
  };
}

export function evmTxRecord(receipt: Record<string, any>): Record<string, unknown> {
  return {
    blockHash: text(receipt.blockHash),
    blockNumber: text(receipt.blockNumber),
    contractAddress: typeof receipt.contractAddress === 'string' ? receipt.contractAddress : null,
    cumulativeGasUsed: text(receipt.cumulativeGasUsed),
    effectiveGasPrice: text(receipt.effectiveGasPrice),
    from: text(receipt.from),
    gasUsed: text(receipt.gasUsed),
    logs: Array.isArray(receipt.logs) ? receipt.logs.map(logRecord) : null,
    logsBloom: text(receipt.logsBloom),
    status: text(receipt.status),
    to: text(receipt.to),
    transactionHash: text(receipt.transactionHash),
    transactionIndex: text(receipt.transactionIndex),
    type: text(receipt.type),
  };
}

/** One receipt as an indexed EVM tx: from, to, the created contract, log addresses and address-shaped topics. */
export function decodeEvmReceipt(receipt: Record<string, any>, index: number, prefix: string): IndexedEvmTx {
  const accounts = createAccountList(prefix);
  const from = text(receipt.from);
  if (from !== '') accounts.addString(from);
  if (text(receipt.to) !== '') accounts.addString(receipt.to);
  if (text(receipt.contractAddress) !== '') accounts.addString(receipt.contractAddress);
  for (const log of Array.isArray(receipt.logs) ? receipt.logs : []) {
    accounts.addString(text(log.address));
    const topics: unknown[] = Array.isArray(log.topics) ? log.topics : [];
    for (let i = 1; i < topics.length; i += 1) {
      const topic = topics[i];
      if (typeof topic === 'string' && topic.startsWith(PADDED_TOPIC)) accounts.addString(topic);
    }
  }
  const signer = accAddressFromString(from, prefix);
  if (!signer) throw new Error(`receipt ${index}: invalid from address ${JSON.stringify(receipt.from)}`);
  return {
    hash: hexToBytesPadded(text(receipt.transactionHash)),
    index,
    signer: signer.bytes,
    accounts: accounts.withSigner(signer),
    record: evmTxRecord(receipt),
  };
}
