import { makeSignDoc, serializeSignDoc } from '@cosmjs/amino';
import { aminoTypes } from '@initia/amino-converter';
import { toPrefixedMessage } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { encodeAny } from 'weft/chain/registry.js';
import { deriveAccount } from '../keys.js';
import { aminoSignBytes, aminoSignDoc, canonicalJson, eip191Message } from './amino-sign-doc.js';
import { decodeTx } from './codec.js';
import { signTx } from './sign.js';
import { SignBytesError, txSignBytes, verifyTxSignature } from './verify.js';

const alice = deriveAccount({ seed: 'amino', index: 0, keyType: 'secp256k1', prefix: 'init' });
const eve = deriveAccount({ seed: 'amino', index: 1, keyType: 'ethsecp256k1', prefix: 'init' });

const deposit = {
  typeUrl: '/opinit.ophost.v1.MsgInitiateTokenDeposit',
  value: {
    sender: alice.address,
    bridgeId: 3n,
    to: eve.address,
    amount: { denom: 'uinit', amount: '25' },
    data: new Uint8Array(),
  },
};
const send = {
  typeUrl: '/cosmos.bank.v1beta1.MsgSend',
  value: { fromAddress: alice.address, toAddress: eve.address, amount: [{ denom: 'uinit', amount: '7' }] },
};
const withdrawal = {
  typeUrl: '/opinit.opchild.v1.MsgInitiateTokenWithdrawal',
  value: { sender: eve.address, to: alice.address, amount: { denom: 'l2/abc', amount: '9' } },
};

/** What cosmjs `SigningStargateClient.signAmino` signs for the same msgs, fee and signer data. */
function cosmjsSignBytes(
  msgs: Array<{ typeUrl: string; value: object }>,
  fee: { amount: Array<{ denom: string; amount: string }>; gas: string; payer?: string; granter?: string },
  memo: string,
  timeoutHeight?: bigint,
) {
  return serializeSignDoc(
    makeSignDoc(
      msgs.map((m) => aminoTypes.toAmino(m)),
      fee,
      'weft-l1-1',
      memo,
      12,
      34,
      timeoutHeight,
    ),
  );
}

const ours = (
  msgs: Array<{ typeUrl: string; value: object }>,
  fee: {
    amount: Array<{ denom: string; amount: string }>;
    gasLimit: bigint;
    payer?: string;
    granter?: string;
  },
  memo: string,
  timeoutHeight = 0n,
) =>
  aminoSignBytes({
    messages: msgs.map((m) => encodeAny(m.typeUrl, m.value)),
    memo,
    timeoutHeight,
    fee: { payer: '', granter: '', ...fee },
    chainId: 'weft-l1-1',
    accountNumber: 12n,
    sequence: 34n,
  });

describe('amino sign doc', () => {
  it('is the bytes cosmjs signs, for msgs decoded from their proto bytes', async () => {
    const fee = { amount: [{ denom: 'uinit', amount: '6000' }] };
    expect(Buffer.from(await ours([deposit, send], { ...fee, gasLimit: 400_000n }, ''))).toEqual(
      Buffer.from(cosmjsSignBytes([deposit, send], { ...fee, gas: '400000' }, '')),
    );
    expect(Buffer.from(await ours([withdrawal], { ...fee, gasLimit: 1n }, 'hi'))).toEqual(
      Buffer.from(cosmjsSignBytes([withdrawal], { ...fee, gas: '1' }, 'hi')),
    );
  });

  it('escapes & < > as cosmjs and Go do, and carries payer, granter and timeout height only when set', async () => {
    const memo = 'a <b> & "c"';
    const fee = { amount: [], payer: eve.address, granter: alice.address };
    const bytes = await ours([send], { ...fee, gasLimit: 5n }, memo, 77n);
    expect(Buffer.from(bytes)).toEqual(Buffer.from(cosmjsSignBytes([send], { ...fee, gas: '5' }, memo, 77n)));
    const json = Buffer.from(bytes).toString();
    expect(json).toContain('"memo":"a \\u003cb\\u003e \\u0026 \\"c\\""');
    expect(json).toContain('"timeout_height":"77"');
    expect(json).toContain(
      `"fee":{"amount":[],"gas":"5","granter":"${alice.address}","payer":"${eve.address}"}`,
    );

    const plain = await aminoSignDoc({
      messages: [encodeAny(send.typeUrl, send.value)],
      memo: '',
      timeoutHeight: 0n,
      fee: { amount: [], gasLimit: 5n, payer: '', granter: '' },
      chainId: 'c',
      accountNumber: 0n,
      sequence: 0n,
    });
    expect(Object.keys(plain).sort()).toEqual([
      'account_number',
      'chain_id',
      'fee',
      'memo',
      'msgs',
      'sequence',
    ]);
    expect(plain.fee).toEqual({ amount: [], gas: '5' });
  });

  it('sorts keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: [{ z: 1, a: 2 }, 3], a: { y: null, x: undefined } })).toBe(
      '{"a":{"y":null},"b":[{"a":2,"z":1},3]}',
    );
  });

  it('wraps the JSON as an Ethereum personal message for EIP-191, which personal_sign signatures verify', async () => {
    const json = await ours([send], { amount: [], gasLimit: 1n }, '');
    const message = eip191Message(json);
    expect(`0x${Buffer.from(message).toString('hex')}`).toBe(toPrefixedMessage({ raw: json }));
    const wallet = privateKeyToAccount(eve.privateKey as `0x${string}`);
    const signature = Buffer.from((await wallet.signMessage({ message: { raw: json } })).slice(2), 'hex');
    expect(signature.length).toBe(65);
    const pubKey = encodeAny(eve.pubKeyTypeUrl, { key: eve.publicKey });
    expect(verifyTxSignature({ pubKey, signDoc: message, signature })).toBe(true);
    expect(verifyTxSignature({ pubKey, signDoc: message, signature: signature.subarray(0, 64) })).toBe(true);
    expect(verifyTxSignature({ pubKey, signDoc: json, signature })).toBe(false);
  });

  it('refuses sign modes the chain has no handler for, in the handler map words', async () => {
    const tx = decodeTx(
      signTx({
        msgs: [encodeAny(send.typeUrl, send.value)],
        fee: { amount: [], gasLimit: 1n },
        signer: alice,
        chainId: 'c',
        accountNumber: 0n,
        sequence: 0n,
      }),
    );
    const signer = { chainId: 'c', accountNumber: 0n, sequence: 0n };
    await expect(txSignBytes(2, tx, signer)).rejects.toThrow(
      new SignBytesError('unsupported sign mode SIGN_MODE_TEXTUAL'),
    );
    await expect(txSignBytes(4242, tx, signer)).rejects.toThrow('unsupported sign mode 4242');
    const eip191 = Buffer.from(await txSignBytes(191, tx, signer)).toString();
    expect(eip191.startsWith('\x19Ethereum Signed Message:\n')).toBe(true);
    expect(eip191).toMatch(/:\n\d+\{"account_number":"0"/);
  });
});
