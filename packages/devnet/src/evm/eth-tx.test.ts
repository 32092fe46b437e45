import { MsgCall, MsgCreate } from '@initia/initia.proto/minievm/evm/v1/tx.js';
import { AuthInfo, TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { keccak256, type TransactionSerializable } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { toBech32 } from 'weft/chain/address.js';
import { decodeTx } from '../tx/codec.js';
import {
  convertEthereumTx,
  type EthTxParams,
  ethTxHash,
  ethTxOfCosmosTx,
  verifyEthereumTx,
} from './eth-tx.js';
import { evmChainIdOf } from './fee-units.js';

const account = privateKeyToAccount(`0x${'42'.repeat(32)}`);
const params: EthTxParams = {
  chainId: 'minievm-1',
  evmChainId: evmChainIdOf('minievm-1'),
  bech32Prefix: 'init',
  feeDenom: 'GAS',
  feeDecimals: 18,
};
const chainId = Number(params.evmChainId);
const to = '0x00000000000000000000000000000000000000AA';

const sign = async (tx: TransactionSerializable) => {
  const serialized = await account.signTransaction(tx);
  return { serialized, raw: Buffer.from(serialized.slice(2), 'hex') };
};

const reencode = (txRaw: Uint8Array, edit: (parts: ReturnType<typeof TxRaw.decode>) => void) => {
  const parts = TxRaw.decode(txRaw);
  edit(parts);
  return decodeTx(TxRaw.encode(parts).finish());
};

describe('Ethereum tx conversion', () => {
  it.each([
    { type: 'eip1559', maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 3n },
    { type: 'legacy', gasPrice: 1_500_000_000n },
    { type: 'eip2930', gasPrice: 7n, accessList: [{ address: to, storageKeys: [`0x${'01'.repeat(32)}`] }] },
  ] as const)('converts a viem-signed $type tx to a cosmos tx that verifies', async (fields) => {
    const { serialized, raw } = await sign({
      ...fields,
      chainId,
      nonce: 5,
      gas: 90_000n,
      to,
      data: '0xa9059cbb',
    } as TransactionSerializable);
    const { txRaw, envelope } = convertEthereumTx(raw, params);
    expect(envelope.hash).toBe(keccak256(serialized));
    expect(envelope).toMatchObject({ from: account.address.toLowerCase(), nonce: 5n, gasLimit: 90_000n });

    const tx = decodeTx(txRaw);
    expect(verifyEthereumTx(tx, params)).toBe(true);
    const back = ethTxOfCosmosTx(tx, params)!;
    expect(ethTxHash(back.tx)).toBe(envelope.hash);

    const feeCap = ('maxFeePerGas' in fields ? fields.maxFeePerGas : fields.gasPrice) as bigint;
    const tipCap = 'maxPriorityFeePerGas' in fields ? fields.maxPriorityFeePerGas : fields.gasPrice;
    const type = { legacy: 0, eip2930: 1, eip1559: 2 }[fields.type];
    expect(tx.body.memo).toBe(
      `{"type":${type},"gas_fee_cap":${feeCap},"gas_tip_cap":${tipCap},"gas_limit":90000}`,
    );
    expect(tx.authInfo.fee).toMatchObject({
      gasLimit: 90_000n,
      amount: [{ denom: 'GAS', amount: String(feeCap * 90_000n + 1n) }],
    });
    const info = tx.authInfo.signerInfos[0]!;
    expect(info).toMatchObject({ sequence: 5n, modeInfo: { single: { mode: 9999 } } });
    expect(info.publicKey!.typeUrl).toBe('/initia.crypto.v1beta1.ethsecp256k1.PubKey');
    expect(tx.signatures[0]).toHaveLength(65);
    expect(tx.body.extensionOptions.map((o) => o.typeUrl)).toEqual(['/initia.tx.v1.ExtensionOptionQueuedTx']);
    const msg = MsgCall.decode(tx.body.messages[0]!.value);
    expect(msg).toMatchObject({
      sender: toBech32('init', Buffer.from(account.address.slice(2), 'hex')),
      contractAddr: to,
      input: '0xa9059cbb',
      value: '0',
    });
  });

  it('converts a creation to MsgCreate and a zero fee cap to no fee', async () => {
    const { raw } = await sign({
      type: 'eip1559',
      chainId,
      nonce: 0,
      gas: 500_000n,
      maxFeePerGas: 0n,
      maxPriorityFeePerGas: 0n,
      data: '0x6000',
    });
    const tx = decodeTx(convertEthereumTx(raw, params).txRaw);
    expect(tx.body.messages[0]!.typeUrl).toBe('/minievm.evm.v1.MsgCreate');
    expect(MsgCreate.decode(tx.body.messages[0]!.value).code).toBe('0x6000');
    expect(tx.authInfo.fee.amount).toEqual([]);
    expect(verifyEthereumTx(tx, params)).toBe(true);
  });

  it('rejects what the signature does not cover, or a changed fee', async () => {
    const { raw } = await sign({
      type: 'eip1559',
      chainId,
      nonce: 1,
      gas: 21_000n,
      maxFeePerGas: 10n,
      maxPriorityFeePerGas: 1n,
      to,
      data: '0x',
    });
    const { txRaw } = convertEthereumTx(raw, params);
    const wrongSequence = reencode(txRaw, (parts) => {
      const info = AuthInfo.decode(parts.authInfoBytes);
      info.signerInfos[0]!.sequence = 2n;
      parts.authInfoBytes = AuthInfo.encode(info).finish();
    });
    expect(verifyEthereumTx(wrongSequence, params)).toBe(false);
    const wrongFee = reencode(txRaw, (parts) => {
      const info = AuthInfo.decode(parts.authInfoBytes);
      info.fee!.amount[0]!.amount = '1';
      parts.authInfoBytes = AuthInfo.encode(info).finish();
    });
    expect(() => ethTxOfCosmosTx(wrongFee, params)).toThrow(
      'fee amount manipulation detected: Tx conversion failed',
    );
    expect(verifyEthereumTx(wrongFee, params)).toBe(false);
    const otherChain = { ...params, evmChainId: params.evmChainId + 1n };
    expect(verifyEthereumTx(decodeTx(txRaw), otherChain)).toBe(false);
  });

  it('refuses unprotected legacy txs and txs of another chain, as minievm does', async () => {
    const { raw: unprotected } = await sign({ type: 'legacy', nonce: 0, gas: 21_000n, gasPrice: 1n, to });
    expect(() => convertEthereumTx(unprotected, params)).toThrow(
      'only replay-protected (EIP-155) transactions allowed over RPC',
    );
    const { raw: foreign } = await sign({
      type: 'eip1559',
      chainId: 1,
      nonce: 0,
      gas: 21_000n,
      maxFeePerGas: 1n,
      maxPriorityFeePerGas: 1n,
      to,
    });
    expect(() => convertEthereumTx(foreign, params)).toThrow(
      `invalid chain id for signer: have 1 want ${params.evmChainId}`,
    );
    const { raw: foreignLegacy } = await sign({
      type: 'legacy',
      chainId: 5,
      nonce: 0,
      gas: 21_000n,
      gasPrice: 1n,
      to,
    });
    expect(() => convertEthereumTx(foreignLegacy, params)).toThrow(
      `invalid chain id for signer: have 5 want ${params.evmChainId}`,
    );
  });

  it('derives the Ethereum chain id from the cosmos chain id as minievm does', () => {
    // keccak256("minievm-1")[:8] as big-endian uint64, modulo MetaMask's largest safe chain id.
    const hash = BigInt(keccak256(Buffer.from('minievm-1')).slice(0, 18));
    expect(evmChainIdOf('minievm-1')).toBe(hash % 4503599627370476n);
  });
});
