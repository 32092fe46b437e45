import { createHash } from 'node:crypto';
import { keccak256, Secp256k1, Secp256k1Signature } from '@cosmjs/crypto';
import { Comet38Client } from '@cosmjs/tendermint-rpc';
import { RESTClient, Tx } from '@initia/initia.js';
import { AuthInfo, SignDoc, TxBody, TxRaw } from '@initia/initia.proto/cosmos/tx/v1beta1/tx.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from 'weft/common/logger.js';
import { type Devnet, type DevnetChain, startDevnet } from 'weft-devnet/devnet.js';

/**
 * Acceptance: independent real clients read a 200-block mixed-traffic run of each VM without error,
 * every raw tx decodes with the Initia protobuf types, its signature verifies and its hash is the
 * SHA-256 of its bytes.
 */

const BLOCKS = 200;
let devnet: Devnet;

beforeAll(async () => {
  devnet = await startDevnet({
    seed: 'clients',
    vms: ['move', 'wasm'],
    blockTimeMs: 1000,
    accounts: 8,
    txsPerBlock: 10,
    host: '127.0.0.1',
    portBase: 0,
    logger: silentLogger(),
  });
  await devnet.fastForward(BLOCKS);
}, 300_000);

afterAll(async () => {
  await devnet?.close();
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest();

/** Verifies a SIGN_MODE_DIRECT signature with cosmjs' secp256k1, not with the devnet's own code. */
async function verifyDirect(raw: Uint8Array, chainId: string, accountNumber: bigint): Promise<boolean> {
  const txRaw = TxRaw.decode(raw);
  const authInfo = AuthInfo.decode(txRaw.authInfoBytes);
  const info = authInfo.signerInfos[0]!;
  const pubKey = info.publicKey!;
  const key = pubKey.value.subarray(2); // the PubKey proto: field 1, length 33
  const signDoc = SignDoc.encode({
    bodyBytes: txRaw.bodyBytes,
    authInfoBytes: txRaw.authInfoBytes,
    chainId,
    accountNumber,
  }).finish();
  const digest = pubKey.typeUrl.includes('ethsecp256k1') ? keccak256(signDoc) : sha256(signDoc);
  return Secp256k1.verifySignature(Secp256k1Signature.fromFixedLength(txRaw.signatures[0]!), digest, key);
}

function chainOf(vm: string): DevnetChain {
  return devnet.chains.find((c) => c.vm === vm)!;
}

describe.each(['move', 'wasm'])('%s rollup read by real clients', (vm) => {
  it('Comet38Client reads status, every block and every block result', async () => {
    const { urls, chain } = chainOf(vm);
    const client = await Comet38Client.connect(urls.rpc);
    const status = await client.status();
    expect(status.nodeInfo.network).toBe(chain.info.chainId);
    expect(status.syncInfo.latestBlockHeight).toBe(BLOCKS);
    let txs = 0;
    let failed = 0;
    for (let height = 1; height <= BLOCKS; height += 1) {
      const [block, results] = await Promise.all([client.block(height), client.blockResults(height)]);
      expect(block.block.header.height).toBe(height);
      expect(block.block.header.chainId).toBe(chain.info.chainId);
      expect(results.results.length).toBe(block.block.txs.length);
      for (const [i, raw] of block.block.txs.entries()) {
        const record = chain.getBlock(height)!.txs[i]!;
        expect(Buffer.from(sha256(raw)).toString('hex').toUpperCase()).toBe(record.hash);
        expect(results.results[i]!.code).toBe(record.result.code);
        if (results.results[i]!.code !== 0) failed += 1;
      }
      txs += block.block.txs.length;
    }
    expect(txs).toBeGreaterThan(BLOCKS * 5);
    expect(failed).toBeGreaterThan(0);
    client.disconnect();
  });

  it('every raw tx decodes with the Initia protobuf types and its signature verifies', async () => {
    const { chain } = chainOf(vm);
    const accountNumbers = new Map<string, bigint>();
    for (let height = 1; height <= BLOCKS; height += 1) {
      for (const record of chain.getBlock(height)!.txs) {
        const raw = Buffer.from(record.raw, 'base64');
        const tx = Tx.fromBuffer(raw);
        expect(tx.body.messages.length).toBeGreaterThan(0);
        expect(TxBody.decode(TxRaw.decode(raw).bodyBytes).messages.length).toBe(tx.body.messages.length);
        const signer = record.restTx.auth_info.signer_infos[0]!;
        const address = tx.auth_info.signer_infos[0]!.public_key.address();
        let accountNumber = accountNumbers.get(address);
        if (accountNumber === undefined) {
          accountNumber = chain.account(address)!.accountNumber;
          accountNumbers.set(address, accountNumber);
        }
        expect(signer.sequence).toBe(String(tx.auth_info.signer_infos[0]!.sequence));
        expect(await verifyDirect(raw, chain.info.chainId, accountNumber)).toBe(true);
      }
    }
  });

  it('initia.js RESTClient reads the txs of every block and the balances', async () => {
    const { urls, chain, accounts } = chainOf(vm);
    const rest = new RESTClient(urls.rest, { chainId: chain.info.chainId });
    for (let height = 1; height <= BLOCKS; height += 1) {
      const infos = await rest.tx.txInfosByHeight(height);
      const records = chain.getBlock(height)!.txs;
      expect(infos.map((i) => i.txhash)).toEqual(records.map((r) => r.hash));
      for (const [i, info] of infos.entries()) {
        expect(info.code).toBe(records[i]!.result.code);
        expect(Number(info.height)).toBe(height);
      }
    }
    for (const account of accounts) {
      const [coins] = await rest.bank.balance(account.address);
      const expected = await chain.balances(account.address);
      expect(coins.toData()).toEqual(expected);
    }
  });
});
