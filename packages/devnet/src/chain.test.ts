import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encodeAny } from 'weft/chain/registry.js';
import { silentLogger } from 'weft/common/logger.js';
import { deriveAccount } from './keys.js';
import { BECH32_PREFIX, createRollup } from './rollup.js';
import { decodeTx } from './tx/codec.js';
import { signTx } from './tx/sign.js';

const MSG_SEND = '/cosmos.bank.v1beta1.MsgSend';

async function moveRollup() {
  return createRollup({
    vm: 'move',
    chainId: 'test-move-1',
    seed: 'chain-test',
    accounts: 4,
    blockTimeMs: 1000,
    logger: silentLogger(),
  });
}

describe('chain', () => {
  it('produces blocks with generated traffic, including failed txs', async () => {
    const { chain, traffic } = await moveRollup();
    let txs = 0;
    let failed = 0;
    for (let i = 0; i < 10; i += 1) {
      await traffic.fill(8);
      const block = await chain.produceBlock();
      expect(block.height).toBe(i + 1);
      txs += block.txs.length;
      for (const tx of block.txs) {
        const raw = Buffer.from(tx.raw, 'base64');
        expect(tx.hash).toBe(createHash('sha256').update(raw).digest('hex').toUpperCase());
        if (tx.result.code !== 0) {
          failed += 1;
          expect(tx.result.codespace).toBe('sdk');
          expect([5, 11]).toContain(tx.result.code);
          expect(tx.result.log).toMatch(/insufficient funds|out of gas/);
        }
      }
    }
    expect(txs).toBe(80);
    // Fees of block 1 are paid to the sequencer at BeginBlock of block 2, each event tagged with its mode.
    const finalize = chain.getBlock(2)!.blockResults.finalize_block_events as Array<{
      type: string;
      attributes: Array<{ key: string; value: string }>;
    }>;
    expect(finalize.map((e) => e.type)).toEqual(['coin_spent', 'coin_received', 'transfer', 'message']);
    for (const e of finalize) expect(e.attributes.at(-1)).toMatchObject({ key: 'mode', value: 'BeginBlock' });
    expect(failed).toBeGreaterThan(0);
    expect(chain.latestHeight()).toBe(10);
  });

  it('is deterministic for a seed', async () => {
    const hashes = [];
    for (let run = 0; run < 2; run += 1) {
      const { chain, traffic } = await moveRollup();
      for (let i = 0; i < 3; i += 1) {
        await traffic.fill(5);
        await chain.produceBlock();
      }
      hashes.push(chain.getBlock(3)!.block.block_id.hash);
    }
    expect(hashes[0]).toBe(hashes[1]);
  });

  it('rejects a wrong key, a wrong sequence and unpaid fees with the SDK codes, changing nothing', async () => {
    const { chain, accounts } = await moveRollup();
    const [alice, bob] = accounts as [(typeof accounts)[0], (typeof accounts)[0]];
    const mallory = deriveAccount({ seed: 'other', index: 0, keyType: 'secp256k1', prefix: BECH32_PREFIX });
    const send = encodeAny(MSG_SEND, {
      fromAddress: alice.address,
      toAddress: bob.address,
      amount: [{ denom: 'umin', amount: '5' }],
    });
    const fee = { amount: [{ denom: 'umin', amount: '30000' }], gasLimit: 200_000n };
    const before = { alice: await chain.balances(alice.address), bob: await chain.balances(bob.address) };
    const base = { msgs: [send], fee, chainId: chain.info.chainId, accountNumber: 0n, sequence: 0n };

    // Signed by another key over alice's msg: the pubkey's address is not the msg signer.
    const wrongKey = await chain.broadcastTx(signTx({ ...base, signer: mallory }));
    expect(wrongKey).toMatchObject({ code: 8, codespace: 'sdk' });
    expect(wrongKey.log).toContain('pubKey does not match signer address');

    const wrongSequence = await chain.broadcastTx(signTx({ ...base, signer: alice, sequence: 7n }));
    expect(wrongSequence).toMatchObject({ code: 32, codespace: 'sdk' });
    expect(wrongSequence.log).toBe(
      'account sequence mismatch, expected 0, got 7: incorrect account sequence',
    );

    const wrongChain = await chain.broadcastTx(signTx({ ...base, signer: alice, chainId: 'other-1' }));
    expect(wrongChain).toMatchObject({ code: 4, codespace: 'sdk' });
    expect(wrongChain.log).toContain(
      'signature verification failed; please verify account number (0) and chain-id (test-move-1): (unable to verify single signer signature): unauthorized',
    );

    const lowFee = await chain.broadcastTx(
      signTx({
        ...base,
        signer: alice,
        fee: { amount: [{ denom: 'umin', amount: '1' }], gasLimit: 200_000n },
      }),
    );
    expect(lowFee).toMatchObject({ code: 13, codespace: 'sdk' });
    expect(lowFee.log).toBe('insufficient fees; got: 1umin required: 30000umin: insufficient fee');

    const poorFee = await chain.broadcastTx(
      signTx({
        ...base,
        signer: alice,
        fee: { amount: [{ denom: 'umin', amount: '10000000000000000' }], gasLimit: 200_000n },
      }),
    );
    expect(poorFee).toMatchObject({ code: 5, codespace: 'sdk' });
    expect(poorFee.log).toMatch(
      /^spendable balance \d+umin is smaller than 10000000000000000umin: insufficient funds/,
    );

    await chain.produceBlock();
    expect(chain.getBlock(1)!.txs).toHaveLength(0);
    expect(await chain.balances(alice.address)).toEqual(before.alice);
    expect(await chain.balances(bob.address)).toEqual(before.bob);
    expect(chain.account(alice.address)!.sequence).toBe(0n);

    // The same tx, rightly signed, goes through and is decodable from the block.
    const ok = await chain.broadcastTx(signTx({ ...base, signer: alice }));
    expect(ok.code).toBe(0);
    const block = await chain.produceBlock();
    expect(block.txs[0]!.result.code).toBe(0);
    expect(decodeTx(Buffer.from(block.txs[0]!.raw, 'base64')).hash).toBe(ok.hash);
    expect(chain.account(alice.address)!.sequence).toBe(1n);
  });
});
