import { Comet38Client } from '@cosmjs/tendermint-rpc';
import { RESTClient } from '@initia/initia.js';
import { MsgSend } from '@initia/initia.proto/cosmos/bank/v1beta1/tx.js';
import { type BaseError, type Hex, keccak256, toHex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveAccount } from 'weft-devnet/keys.js';
import { signTx } from 'weft-devnet/tx/sign.js';
import { type EvmDevnet, sha256Hex, startEvmDevnet, ZERO_HASH } from './evm-devnet-support.js';

/**
 * Acceptance, EVM half: txs with a bad signature, nonce, balance or chain id, sent to the EVM rollup
 * through CometBFT and through its JSON-RPC, are rejected with the node's own error (code, codespace and
 * log as minievm words them) and change nothing: not the sender's balance, nonce or sequence, and no
 * block holds them. The rollup's traffic never touches the sender.
 */

let net: EvmDevnet;

beforeAll(async () => {
  net = await startEvmDevnet('evm-rejections', 3);
}, 120_000);

afterAll(async () => {
  await net?.close();
});

/** The node's code and message of a failed JSON-RPC call, from viem's error chain. */
async function rpcFailure(call: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await call;
  } catch (err) {
    const cause = (err as BaseError).walk((e) => typeof (e as { code?: unknown }).code === 'number') as
      | (BaseError & { code: number })
      | null;
    expect(cause).not.toBeNull();
    return { code: cause!.code, message: cause!.details };
  }
  throw new Error('the call succeeded');
}

describe('EVM rollup rejections', () => {
  it('rejects a wrong key, sequence or balance through CometBFT and JSON-RPC and changes nothing', async () => {
    const { devnet, node, client, rpc } = net;
    const rest = new RESTClient(node.urls.rest, { chainId: node.chain.info.chainId });
    const comet = await Comet38Client.connect(node.urls.rpc);
    const { chainId, denom } = node.chain.info;
    const evmChainId = node.chain.info.evmChainId!;
    const funder = devnet.manifest().chains[0]!.accounts[0]!;
    const funderKey = privateKeyToAccount(funder.private_key as Hex);
    // An account the traffic never touches, so only this test's txs can change it.
    const outsider = deriveAccount({
      seed: 'evm-rejections/outsider',
      index: 0,
      keyType: 'ethsecp256k1',
      prefix: 'init',
    });
    const outsiderKey = privateKeyToAccount(outsider.privateKey as Hex);
    const gasPrice = await client.getGasPrice();
    const signEth = (
      key: typeof funderKey,
      tx: { nonce: number; to: Hex; value?: bigint; gas?: bigint; chainId?: number },
    ) =>
      key.signTransaction({
        type: 'eip1559',
        chainId: evmChainId,
        gas: 100_000n,
        maxFeePerGas: gasPrice,
        maxPriorityFeePerGas: 0n,
        value: 0n,
        ...tx,
      });
    const nonceOf = (address: string, blockTag: 'latest' | 'pending' = 'latest') =>
      client.getTransactionCount({ address: address as Hex, blockTag });

    const funding = await client.sendRawTransaction({
      serializedTransaction: await signEth(funderKey, {
        nonce: await nonceOf(funder.hex_address, 'pending'),
        to: outsider.hexAddress as Hex,
        value: 10n ** 16n,
      }),
    });
    await devnet.step();
    const first = await client.sendRawTransaction({
      serializedTransaction: await signEth(outsiderKey, {
        nonce: 0,
        to: funder.hex_address as Hex,
        value: 1n,
      }),
    });
    await devnet.step();
    for (const hash of [funding, first])
      expect((await client.getTransactionReceipt({ hash })).status).toBe('success');

    const snapshot = async () => {
      const account = await rest.auth.accountInfo(outsider.address);
      return {
        wei: await client.getBalance({ address: outsider.hexAddress as Hex }),
        coins: (await rest.bank.balance(outsider.address))[0].toData(),
        nonce: await nonceOf(outsider.hexAddress),
        pendingNonce: await nonceOf(outsider.hexAddress, 'pending'),
        sequence: account.getSequenceNumber(),
        accountNumber: account.getAccountNumber(),
      };
    };
    const before = await snapshot();
    expect(before.nonce).toBe(1);
    expect(before.wei).toBeGreaterThan(0n);
    const sequence = BigInt(before.sequence);
    const accountNumber = BigInt(before.accountNumber);

    const sendMsg = {
      typeUrl: '/cosmos.bank.v1beta1.MsgSend',
      value: MsgSend.encode({
        fromAddress: outsider.address,
        toAddress: funder.address,
        amount: [{ denom, amount: '1' }],
      }).finish(),
    };
    const minFee = { amount: [{ denom, amount: (200_000n * gasPrice).toString() }], gasLimit: 200_000n };
    const cosmosTx = (overrides: Partial<Parameters<typeof signTx>[0]>) =>
      signTx({
        msgs: [sendMsg],
        fee: minFee,
        signer: outsider,
        chainId,
        accountNumber,
        sequence,
        ...overrides,
      });
    const stranger = deriveAccount({
      seed: 'evm-rejections/outsider',
      index: 1,
      keyType: 'ethsecp256k1',
      prefix: 'init',
    });
    const cosmosCases = [
      {
        raw: cosmosTx({ signer: { ...outsider, privateKey: stranger.privateKey } }),
        code: 4,
        log: `signature verification failed; please verify account number (${accountNumber}) and chain-id (${chainId}): (unable to verify single signer signature): unauthorized`,
      },
      {
        raw: cosmosTx({ sequence: sequence - 1n }),
        code: 32,
        log: `account sequence mismatch, expected ${sequence}, got ${sequence - 1n}: incorrect account sequence`,
      },
      {
        raw: cosmosTx({
          fee: { amount: [{ denom, amount: (before.wei + 1n).toString() }], gasLimit: 200_000n },
        }),
        code: 5,
        // minievm's bank moves coins with the denom's ERC20 `sudoTransfer`, so the SDK wraps its revert.
        log: 'revert: ERC20: transfer amount exceeds balance: Reverted: insufficient funds',
      },
    ];
    const rejected: string[] = [];
    for (const { raw, code, log } of cosmosCases) {
      const result = await comet.broadcastTxSync({ tx: raw });
      expect({ code: result.code, codespace: result.codespace, log: result.log }).toEqual({
        code,
        codespace: 'sdk',
        log,
      });
      expect(toHex(result.hash).slice(2).toUpperCase()).toBe(sha256Hex(raw));
      rejected.push(sha256Hex(raw));
    }

    const ethCases = [
      {
        tx: signEth(outsiderKey, { nonce: 0, to: funder.hex_address as Hex }),
        message: `account sequence mismatch, expected ${sequence}, got 0: incorrect account sequence`,
      },
      {
        tx: signEth(outsiderKey, { nonce: 1, to: funder.hex_address as Hex, gas: 20_000_000n }),
        message: 'revert: ERC20: transfer amount exceeds balance: Reverted: insufficient funds',
      },
      {
        tx: signEth(outsiderKey, { nonce: 1, to: funder.hex_address as Hex, chainId: evmChainId + 1 }),
        message: `invalid chain id for signer: have ${evmChainId + 1} want ${evmChainId}`,
      },
      {
        // Over JSON-RPC a wrong key is just another sender: here one without an account.
        tx: signEth(privateKeyToAccount(stranger.privateKey as Hex), {
          nonce: 0,
          to: funder.hex_address as Hex,
        }),
        message: `fee payer address: ${stranger.address} does not exist: unknown address`,
      },
    ];
    const rejectedEth: Hex[] = [];
    for (const { tx, message } of ethCases) {
      const serializedTransaction = await tx;
      expect(await rpcFailure(client.sendRawTransaction({ serializedTransaction }))).toEqual({
        code: -32000,
        message,
      });
      rejectedEth.push(keccak256(serializedTransaction));
    }

    expect(await snapshot()).toEqual(before);
    await devnet.step();
    expect(await snapshot()).toEqual(before);
    for (const hash of rejected) {
      await expect(rest.tx.txInfo(hash)).rejects.toThrow();
      expect(await rpc('cosmos_txHashByCosmosTxHash', [hash])).toBe(ZERO_HASH);
    }
    for (const hash of rejectedEth) expect(await rpc('eth_getTransactionByHash', [hash])).toBeNull();
    comet.disconnect();
  });
});
