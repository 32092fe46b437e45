import { DirectSecp256k1Wallet, type OfflineDirectSigner } from '@cosmjs/proto-signing';
import { GasPrice, SigningStargateClient, StargateClient } from '@cosmjs/stargate';
import { BaseAccount } from 'cosmjs-types/cosmos/auth/v1beta1/auth';
import { QueryAccountRequest, QueryAccountResponse } from 'cosmjs-types/cosmos/auth/v1beta1/query';
import { QueryAllBalancesRequest, QueryAllBalancesResponse } from 'cosmjs-types/cosmos/bank/v1beta1/query';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeAny } from 'weft/chain/registry.js';
import { silentLogger } from 'weft/common/logger.js';
import { deriveAccount } from '../keys.js';
import { createRollup, type Rollup } from '../rollup.js';
import { signTx } from '../tx/sign.js';
import { type NodeServers, startNodeServers } from './index.js';

let rollup: Rollup;
let servers: NodeServers;

beforeAll(async () => {
  rollup = await createRollup({
    vm: 'wasm',
    chainId: 'abci-query-1',
    seed: 'abci-query',
    accounts: 2,
    blockTimeMs: 1000,
    logger: silentLogger(),
  });
  await rollup.chain.produceBlock();
  const [alice, bob] = rollup.accounts;
  await rollup.chain.broadcastTx(
    signTx({
      msgs: [
        encodeAny('/cosmos.bank.v1beta1.MsgSend', {
          fromAddress: alice!.address,
          toAddress: bob!.address,
          amount: [{ denom: 'umin', amount: '5' }],
        }),
      ],
      fee: { amount: [{ denom: 'umin', amount: '40000' }], gasLimit: 200_000n },
      signer: alice!,
      chainId: 'abci-query-1',
      accountNumber: rollup.chain.account(alice!.address)!.accountNumber,
      sequence: 0n,
    }),
  );
  await rollup.chain.produceBlock();
  servers = await startNodeServers(rollup.chain, {});
});

afterAll(async () => {
  await servers?.close();
});

const abciQuery = async (path: string, data: Uint8Array, height?: number) => {
  const query = new URLSearchParams({
    path: JSON.stringify(path),
    data: `0x${Buffer.from(data).toString('hex')}`,
    ...(height ? { height: String(height) } : {}),
  });
  const res = await fetch(`${servers.urls.rpc}/abci_query?${query}`);
  return ((await res.json()) as { result: { response: Record<string, unknown> } }).result.response;
};

const accountRequest = (address: string) => QueryAccountRequest.encode({ address }).finish();

describe('abci_query', () => {
  it('answers the auth Account query cosmjs reads account number, sequence and pubkey from', async () => {
    const client = await StargateClient.connect(servers.urls.rpc);
    const alice = rollup.accounts[0]!;
    const view = rollup.chain.account(alice.address)!;
    const account = await client.getAccount(alice.address);
    expect(account).toEqual({
      address: alice.address,
      pubkey: { type: 'tendermint/PubKeySecp256k1', value: Buffer.from(alice.publicKey).toString('base64') },
      accountNumber: view.accountNumber,
      sequence: 1,
    });
    expect(await client.getSequence(alice.address)).toEqual({
      accountNumber: view.accountNumber,
      sequence: 1,
    });

    // At the height before the send: no pubkey yet, sequence 0.
    const before = await abciQuery('/cosmos.auth.v1beta1.Query/Account', accountRequest(alice.address), 1);
    expect(before).toMatchObject({ code: 0, height: '1', codespace: '' });
    const { account: any } = QueryAccountResponse.decode(Buffer.from(before.value as string, 'base64'));
    expect(any?.typeUrl).toBe('/cosmos.auth.v1beta1.BaseAccount');
    expect(BaseAccount.decode(any!.value)).toMatchObject({
      address: alice.address,
      pubKey: undefined,
      sequence: 0n,
    });

    const stranger = deriveAccount({
      seed: 'abci-query/none',
      index: 0,
      keyType: 'secp256k1',
      prefix: 'init',
    });
    expect(await client.getAccount(stranger.address)).toBeNull();
    await expect(client.getSequence(stranger.address)).rejects.toThrow('does not exist on chain');
    client.disconnect();
  });

  it('answers with the SDK codes for a missing account, an unknown path and a future height', async () => {
    const stranger = deriveAccount({
      seed: 'abci-query/none',
      index: 1,
      keyType: 'secp256k1',
      prefix: 'init',
    });
    const latest = rollup.chain.latestHeight();
    expect(await abciQuery('/cosmos.auth.v1beta1.Query/Account', accountRequest(stranger.address))).toEqual({
      code: 38,
      log: `rpc error: code = NotFound desc = account ${stranger.address} not found: key not found`,
      info: '',
      index: '0',
      key: null,
      value: null,
      proofOps: null,
      height: String(latest),
      codespace: 'sdk',
    });
    expect(await abciQuery('/cosmos.bank.v1beta1.Query/Nothing', new Uint8Array())).toMatchObject({
      code: 6,
      log: 'unknown query path: unknown request',
    });
    expect(
      await abciQuery('/cosmos.auth.v1beta1.Query/Account', accountRequest(stranger.address), latest + 5),
    ).toMatchObject({ code: 26, codespace: 'sdk' });
  });

  it("answers the bank AllBalances query of cosmjs' getAllBalances, paged as the bank keeper pages", async () => {
    // InterwovenKit reads a Cosmos source chain's balances (for its fee asset) before Keplr signs a bridge tx.
    const client = await StargateClient.connect(servers.urls.rpc);
    const [alice, bob] = rollup.accounts;
    const rest = (await (
      await fetch(`${servers.urls.rest}/cosmos/bank/v1beta1/balances/${bob!.address}`)
    ).json()) as { balances: Array<{ denom: string; amount: string }> };
    expect(rest.balances.length).toBeGreaterThan(0);
    expect(await client.getAllBalances(bob!.address)).toEqual(rest.balances);
    client.disconnect();

    // At height 1, before alice sent bob 5umin; one denom a page, the total counted.
    const request = (address: string) =>
      QueryAllBalancesRequest.encode({
        address,
        pagination: { key: new Uint8Array(), offset: 0n, limit: 1n, countTotal: true, reverse: false },
        resolveDenom: false,
      }).finish();
    const atGenesis = await abciQuery('/cosmos.bank.v1beta1.Query/AllBalances', request(alice!.address), 1);
    expect(atGenesis).toMatchObject({ code: 0, height: '1' });
    const page = QueryAllBalancesResponse.decode(Buffer.from(atGenesis.value as string, 'base64'));
    const funded = rollup.chain.balances(alice!.address, 1);
    expect(page.balances).toEqual((await funded).filter((c) => c.amount !== '0'));
    expect(page.pagination).toEqual({ nextKey: new Uint8Array(), total: 1n });

    expect(await abciQuery('/cosmos.bank.v1beta1.Query/AllBalances', request('init1broken'))).toMatchObject({
      code: 18,
      codespace: 'sdk',
      log: expect.stringMatching(/^rpc error: code = InvalidArgument desc = invalid address: /),
    });
  });

  it('simulates a tx as cosmjs does for gas "auto": the signed tx then fits the gas wallets add to it', async () => {
    const [alice] = rollup.accounts;
    const wallet = await DirectSecp256k1Wallet.fromKey(
      Buffer.from(alice!.privateKey.slice(2), 'hex'),
      'init',
    );
    const client = await SigningStargateClient.connectWithSigner(servers.urls.rpc, wallet, {
      gasPrice: GasPrice.fromString('0.15umin'),
    });
    // A recipient the chain has never seen: the send creates its account.
    const fresh = deriveAccount({ seed: 'abci-query/fresh', index: 0, keyType: 'secp256k1', prefix: 'init' });
    const send = (amount: string) => ({
      typeUrl: '/cosmos.bank.v1beta1.MsgSend',
      value: { fromAddress: alice!.address, toAddress: fresh.address, amount: [{ denom: 'umin', amount }] },
    });
    const gas = await client.simulate(alice!.address, [send('7')], 'gas auto');
    expect(gas).toBeGreaterThan(20_000);
    const before = await client.getSequence(alice!.address);
    // cosmjs simulates, multiplies by 1.4 (InterwovenKit's DEFAULT_GAS_ADJUSTMENT too), signs and polls.
    const pending = client.signAndBroadcast(alice!.address, [send('7')], 'auto', 'gas auto');
    // cosmjs polls for the tx after its broadcast: blocks come until it is found.
    let done = false;
    const blocks = (async () => {
      while (!done) {
        await rollup.chain.produceBlock();
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    const result = await pending.finally(() => {
      done = true;
    });
    await blocks;
    expect(result.code, result.rawLog).toBe(0);
    // The signed tx pays for the fee deduction the feeless simulation skipped: more, within the adjustment.
    expect(Number(result.gasUsed)).toBeGreaterThan(gas);
    expect(Number(result.gasUsed)).toBeLessThan(gas * 1.4);
    expect((await client.getSequence(alice!.address)).sequence).toBe(before.sequence + 1);

    // A simulation that fails answers the SDK's error, which cosmjs raises.
    await expect(client.simulate(alice!.address, [send('999999999999999999999')], '')).rejects.toThrow(
      /insufficient funds/,
    );
    client.disconnect();
  });

  it("simulates for an EVM wallet, whose ethsecp256k1 key cosmjs' simulate types as secp256k1", async () => {
    const [alice] = rollup.accounts;
    // InterwovenKit estimates with cosmjs' `simulate`, which encodes any signer's key as secp256k1: the
    // address that key would derive is not the EVM wallet's. The SDK simulates all the same.
    const evm = deriveAccount({ seed: 'abci-query/evm', index: 0, keyType: 'ethsecp256k1', prefix: 'init' });
    await rollup.chain.broadcastTx(
      signTx({
        msgs: [
          encodeAny('/cosmos.bank.v1beta1.MsgSend', {
            fromAddress: alice!.address,
            toAddress: evm.address,
            amount: [{ denom: 'umin', amount: '1000000' }],
          }),
        ],
        fee: { amount: [{ denom: 'umin', amount: '40000' }], gasLimit: 200_000n },
        signer: alice!,
        chainId: 'abci-query-1',
        accountNumber: rollup.chain.account(alice!.address)!.accountNumber,
        sequence: BigInt(rollup.chain.account(alice!.address)!.sequence),
      }),
    );
    await rollup.chain.produceBlock();
    const signer: OfflineDirectSigner = {
      getAccounts: async () => [{ address: evm.address, algo: 'secp256k1', pubkey: evm.publicKey }],
      signDirect: () => Promise.reject(new Error('a simulation signs nothing')),
    };
    const client = await SigningStargateClient.connectWithSigner(servers.urls.rpc, signer);
    const send = {
      typeUrl: '/cosmos.bank.v1beta1.MsgSend',
      value: {
        fromAddress: evm.address,
        toAddress: alice!.address,
        amount: [{ denom: 'umin', amount: '1' }],
      },
    };
    expect(await client.simulate(evm.address, [send], '')).toBeGreaterThan(20_000);
    client.disconnect();
  });
});
