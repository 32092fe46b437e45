import { ecrecover } from '@ethereumjs/util';

/** Recovered keys kept; past it the memo starts over (a block's txs are recovered well within it). */
const MAX_RECOVERED = 4096;

const hex = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');

/**
 * `ecrecover` that recovers each signature once: a tx sent over JSON-RPC is recovered when it is converted
 * to its Cosmos tx and again when the ante checks the Ethereum tx that Cosmos tx stands for. A failed
 * recovery is not kept (it throws again).
 */
export function memoizedEcrecover(): typeof ecrecover {
  const recovered = new Map<string, Uint8Array>();
  return (msgHash, v, r, s, chainId) => {
    const key = `${hex(msgHash)}:${v}:${hex(r)}:${hex(s)}:${chainId ?? ''}`;
    let publicKey = recovered.get(key);
    if (!publicKey) {
      publicKey = ecrecover(msgHash, v, r, s, chainId);
      if (recovered.size >= MAX_RECOVERED) recovered.clear();
      recovered.set(key, publicKey);
    }
    return publicKey;
  };
}
