import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from 'weft/common/logger.js';
import { l2Denom } from 'weft/protocol/opinit.js';
import { eventsOfType } from '../relayers/opinit-schedule.js';
import { createOpinitTestbed, type OpinitTestbed } from '../test-support/opinit-testbed.js';
import { createTrafficGenerator } from './generator.js';
import { opinitClaimPlan, opinitDepositPlan, opinitWithdrawalPlan } from './opinit.js';

let bed: OpinitTestbed;

beforeAll(async () => {
  bed = await createOpinitTestbed({ childVm: 'wasm', finalizationPeriodMs: 1_000, seed: 'opinit-traffic' });
  await bed.step();
}, 60_000);

afterAll(async () => {
  await bed?.close();
});

describe('OPinit traffic', () => {
  it('deposits, withdraws and claims, some failing, and the escrow backs every l2 coin', async () => {
    const logger = silentLogger();
    const host = createTrafficGenerator({
      chain: bed.host.chain,
      accounts: bed.host.accounts,
      plans: [
        opinitDepositPlan([{ bridgeId: bed.bridgeId, recipients: bed.child.accounts.map((a) => a.address) }]),
        opinitClaimPlan([bed.executor]),
      ],
      seed: 'opinit-traffic',
      logger,
    });
    const child = createTrafficGenerator({
      chain: bed.child.chain,
      accounts: bed.child.accounts,
      plans: [opinitWithdrawalPlan(bed.host.accounts.map((a) => a.address))],
      seed: 'opinit-traffic',
      logger,
    });
    for (let i = 0; i < 20; i += 1) {
      await host.fill(3);
      await child.fill(2);
      await bed.step();
    }
    await bed.step();
    await bed.step();

    type AnyChain = typeof bed.host.chain;
    const txsOf = (chain: AnyChain) =>
      Array.from({ length: chain.latestHeight() }, (_, i) => chain.getBlock(i + 1)!.txs).flat();
    const succeeded = (chain: AnyChain, eventType: string) =>
      txsOf(chain).filter((tx) => tx.result.code === 0 && tx.result.events.some((e) => e.type === eventType))
        .length;
    const failed = (chain: AnyChain, typeUrl: string) =>
      txsOf(chain).filter(
        (tx) => tx.result.code !== 0 && tx.restTx.body.messages.some((m) => m['@type'] === typeUrl),
      ).length;
    expect(succeeded(bed.host.chain, 'initiate_token_deposit')).toBeGreaterThan(10);
    expect(failed(bed.host.chain, '/opinit.ophost.v1.MsgInitiateTokenDeposit')).toBeGreaterThan(0);
    expect(succeeded(bed.child.chain, 'initiate_token_withdrawal')).toBeGreaterThan(0);
    expect(failed(bed.child.chain, '/opinit.opchild.v1.MsgInitiateTokenWithdrawal')).toBeGreaterThan(0);
    expect(succeeded(bed.host.chain, 'finalize_token_withdrawal')).toBeGreaterThan(0);
    expect(failed(bed.host.chain, '/opinit.ophost.v1.MsgFinalizeTokenWithdrawal')).toBe(0);

    // Escrow = coins on the rollup + coins withdrawn and not yet claimed.
    const denom = l2Denom(bed.bridgeId, bed.host.chain.info.denom);
    let onRollup = 0n;
    for (const account of bed.child.chain.accounts()) {
      onRollup += BigInt(
        (await bed.child.chain.balances(account.address)).find((c) => c.denom === denom)?.amount ?? '0',
      );
    }
    let withdrawn = 0n;
    for (let h = 1; h <= bed.child.chain.latestHeight(); h += 1) {
      for (const { attributes } of eventsOfType(bed.child.chain.getBlock(h)!, 'initiate_token_withdrawal')) {
        withdrawn += BigInt(attributes.amount!);
      }
    }
    for (let h = 1; h <= bed.host.chain.latestHeight(); h += 1) {
      for (const { attributes } of eventsOfType(bed.host.chain.getBlock(h)!, 'finalize_token_withdrawal')) {
        withdrawn -= BigInt(attributes.amount!);
      }
    }
    const bridge = (await (
      await fetch(`${bed.host.servers.urls.rest}/opinit/ophost/v1/bridges/1`)
    ).json()) as {
      bridge_addr: string;
    };
    const escrow = BigInt(
      (await bed.host.chain.balances(bridge.bridge_addr)).find((c) => c.denom === bed.host.chain.info.denom)!
        .amount,
    );
    expect(bed.executor.pendingDeposits).toBe(0);
    expect(escrow).toBe(onRollup + withdrawn);
  }, 60_000);
});
