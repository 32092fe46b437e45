import { MsgSend } from 'cosmjs-types/cosmos/bank/v1beta1/tx';
import { getAddress, keccak256, toHex } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import { erc20Denom } from 'weft/protocol/evm-denom.js';
import type { DevAccount } from '../keys.js';
import type { BlockRecord } from '../node.js';
import { createEvmTestbed, type EvmTestbed } from '../test-support/evm-testbed.js';

/**
 * The EVM rollup's bank over a token a user made with the ERC20 factory: minievm's `evm/<hex>` denom is
 * that contract (x/evm/types/denom.go), and the bank moves it with `sudoTransfer` (x/evm/keeper/erc20.go).
 */

const ERC20_CREATED = keccak256(toHex('ERC20Created(address,address)'));

const send = (from: DevAccount, to: DevAccount, denom: string, amount: string) => ({
  typeUrl: '/cosmos.bank.v1beta1.MsgSend',
  value: MsgSend.encode({
    fromAddress: from.address,
    toAddress: to.address,
    amount: [{ denom, amount }],
  }).finish(),
});

/** The ERC20 the factory's `ERC20Created` log of the block's first tx names. */
function createdToken(block: BlockRecord): string {
  const logs = block.txs[0]!.result.events.flatMap((e) =>
    (e.attributes ?? []).filter((a) => a.key === 'log').map((a) => JSON.parse(a.value)),
  );
  const created = logs.find((log) => log.topics[0] === ERC20_CREATED);
  return getAddress(`0x${created.topics[1].slice(26)}`);
}

describe('the EVM bank and evm/ denoms', () => {
  let tb: EvmTestbed;
  let token: string;
  beforeAll(async () => {
    tb = await createEvmTestbed({ seed: 'erc20-bank' });
    const [alice] = tb.accounts;
    const factory = tb.node.erc20Factory()!;
    await tb.sendCosmos(
      alice!,
      [tb.callMsg(alice!, factory, 'ERC20Factory', 'createERC20', ['User Token', 'UTK', 6])],
      3_000_000n,
    );
    const created = await tb.produce();
    expect(created.txs[0]!.result.code).toBe(0);
    token = createdToken(created);
    await tb.sendCosmos(alice!, [
      tb.callMsg(alice!, token, 'NativeERC20', 'mint', [alice!.hexAddress, 1000n]),
    ]);
    expect((await tb.produce()).txs[0]!.result.code).toBe(0);
  });

  it('names the token evm/<EIP-55 hex> and sends it with a MsgSend, in any case of the hex', async () => {
    const [alice, bob] = tb.accounts;
    const denom = erc20Denom(token);
    expect(tb.node.denomByContract(token)).toBe(denom);
    expect(tb.node.contractByDenom(denom.toLowerCase())).toBe(token);
    await tb.sendCosmos(alice!, [send(alice!, bob!, denom.toLowerCase(), '300')]);
    const block = await tb.produce();
    expect(block.txs[0]!.result.code, block.txs[0]!.result.log).toBe(0);
    const state = tb.chain.state();
    expect(tb.evm.bank.balance(state, bob!.address, denom)).toBe(300n);
    expect(tb.evm.bank.balance(state, alice!.address, denom)).toBe(700n);
    // Listed among the holder's coins as minievm lists an account's ERC20 stores.
    expect(tb.evm.bank.balances(state, bob!.address)).toContainEqual({ denom, amount: '300' });
    // The chain's own denoms still come from the denom map.
    expect(tb.node.denomByContract(tb.node.contractByDenom('GAS')!)).toBe('GAS');
  });

  it('refuses an evm/ denom that names no address, and minting one', async () => {
    const [alice, bob] = tb.accounts;
    await tb.sendCosmos(alice!, [send(alice!, bob!, 'evm/1234', '1')]);
    const result = (await tb.produce()).txs[0]!.result;
    expect(result.code).toBe(8);
    expect(result.codespace).toBe('evm');
    expect(result.log).toContain('Invalid denom');
    const ctx = { store: tb.store, height: 1, timeMs: 0, events: [], msgIndex: undefined } as never;
    await expect(
      tb.evm.bank.mint(ctx, bob!.address, [{ denom: erc20Denom(token), amount: '1' }]),
    ).rejects.toThrow(`cannot mint erc20 coin: ${erc20Denom(token)}`);
  });
});
