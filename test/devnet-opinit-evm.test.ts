import { MsgInitiateTokenWithdrawal } from '@initia/opinit.proto/opinit/opchild/v1/tx.js';
import {
  MsgFinalizeTokenWithdrawal,
  MsgInitiateTokenDeposit,
} from '@initia/opinit.proto/opinit/ophost/v1/tx.js';
import { createPublicClient, encodeFunctionData, erc20Abi, http } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeAny } from 'weft/chain/registry.js';
import { l2Denom } from 'weft/protocol/opinit.js';
import type { DevAccount } from 'weft-devnet/keys.js';
import {
  createOpinitTestbed,
  type OpinitTestbed,
  type OpinitTestbedChain,
} from 'weft-devnet/test-support/opinit-testbed.js';
import { withdrawalClaim, withdrawalProof } from 'weft-devnet/test-support/withdrawal.js';
import { signTx } from 'weft-devnet/tx/sign.js';
import type { AnyMsg } from 'weft-devnet/types.js';

/**
 * OPinit into the EVM rollup: the deposit is minted into the L2 denom's ERC20 (through the chain's
 * bank, as minievm's), a hook runs an EVM call signed by the recipient, the withdrawal burns the
 * ERC20 there, and the claim releases the L1 escrow.
 */

let bed: OpinitTestbed;
let l2: string;

beforeAll(async () => {
  bed = await createOpinitTestbed({ childVm: 'evm', finalizationPeriodMs: 2_000, seed: 'opinit-evm' });
  l2 = l2Denom(bed.bridgeId, bed.host.chain.info.denom);
  await bed.step();
}, 60_000);

afterAll(async () => {
  await bed?.close();
});

async function send(chain: OpinitTestbedChain, signer: DevAccount, msg: AnyMsg): Promise<string> {
  const account = chain.chain.account(signer.address)!;
  const gasLimit = 1_000_000n;
  const raw = signTx({
    msgs: [msg],
    fee: {
      amount: [
        {
          denom: chain.chain.info.denom,
          amount: String(Math.ceil(Number(gasLimit) * chain.chain.info.minGasPrice)),
        },
      ],
      gasLimit,
    },
    signer,
    chainId: chain.chain.info.chainId,
    accountNumber: account.accountNumber,
    sequence: account.sequence,
  });
  const result = await chain.chain.broadcastTx(raw);
  expect(result.code, result.log).toBe(0);
  return result.hash;
}

const resultOf = (chain: OpinitTestbedChain, hash: string) => {
  const found = chain.chain.findTx(hash)!;
  return chain.chain.getBlock(found.height)!.txs[found.index]!.result;
};

async function steps(n: number) {
  for (let i = 0; i < n; i += 1) await bed.step();
}

describe('OPinit with the EVM rollup as child', () => {
  it('mints the deposit into an ERC20, burns the withdrawal and releases the escrow', async () => {
    const [alice] = bed.host.accounts;
    const [bob] = bed.child.accounts;
    const hostDenom = bed.host.chain.info.denom;
    await send(bed.host, alice!, {
      typeUrl: '/opinit.ophost.v1.MsgInitiateTokenDeposit',
      value: MsgInitiateTokenDeposit.encode(
        MsgInitiateTokenDeposit.fromPartial({
          sender: alice!.address,
          bridgeId: bed.bridgeId,
          to: bob!.address,
          amount: { denom: hostDenom, amount: '5000' },
        }),
      ).finish(),
    });
    await steps(3);

    // The L2 denom is an ERC20 that viem reads through the rollup's JSON-RPC.
    const client = createPublicClient({ transport: http(bed.child.servers.urls.jsonRpc!) });
    const contract = (await (
      await fetch(
        `${bed.child.servers.urls.rest}/minievm/evm/v1/contracts/by_denom?denom=${encodeURIComponent(l2)}`,
      )
    ).json()) as { address: `0x${string}` };
    const erc20 = { address: contract.address, abi: erc20Abi } as const;
    expect(
      await client.readContract({
        ...erc20,
        functionName: 'balanceOf',
        args: [bob!.hexAddress as `0x${string}`],
      }),
    ).toBe(5000n);
    expect(await client.readContract({ ...erc20, functionName: 'totalSupply' })).toBe(5000n);

    // A deposit whose hook is an EVM call signed by the recipient: an ERC20 transfer of what arrives.
    const [, , carol] = bed.child.accounts;
    const bobAccount = bed.child.chain.account(bob!.address)!;
    const hook = signTx({
      msgs: [
        encodeAny('/minievm.evm.v1.MsgCall', {
          sender: bob!.address,
          contractAddr: contract.address,
          input: encodeFunctionData({
            abi: erc20Abi,
            functionName: 'transfer',
            args: [carol!.hexAddress as `0x${string}`, 40n],
          }),
          value: '0',
          accessList: [],
          authList: [],
        }),
      ],
      fee: { amount: [], gasLimit: 1n },
      signer: bob!,
      chainId: bed.child.chain.info.chainId,
      accountNumber: bobAccount.accountNumber,
      sequence: bobAccount.sequence,
    });
    await send(bed.host, alice!, {
      typeUrl: '/opinit.ophost.v1.MsgInitiateTokenDeposit',
      value: MsgInitiateTokenDeposit.encode(
        MsgInitiateTokenDeposit.fromPartial({
          sender: alice!.address,
          bridgeId: bed.bridgeId,
          to: bob!.address,
          amount: { denom: hostDenom, amount: '100' },
          data: hook,
        }),
      ).finish(),
    });
    await steps(3);
    expect(
      await client.readContract({
        ...erc20,
        functionName: 'balanceOf',
        args: [carol!.hexAddress as `0x${string}`],
      }),
    ).toBe(40n);
    expect(
      await client.readContract({
        ...erc20,
        functionName: 'balanceOf',
        args: [bob!.hexAddress as `0x${string}`],
      }),
    ).toBe(5060n);

    const withdrawal = await send(bed.child, bob!, {
      typeUrl: '/opinit.opchild.v1.MsgInitiateTokenWithdrawal',
      value: MsgInitiateTokenWithdrawal.encode(
        MsgInitiateTokenWithdrawal.fromPartial({
          sender: bob!.address,
          to: alice!.address,
          amount: { denom: l2, amount: '2000' },
        }),
      ).finish(),
    });
    await steps(3);
    expect(resultOf(bed.child, withdrawal).code).toBe(0);
    expect(await client.readContract({ ...erc20, functionName: 'totalSupply' })).toBe(3100n);

    const proof = await withdrawalProof(bed.executorUrl, 1);
    expect(proof.output_index).toBeGreaterThan(0);
    await steps(3);
    const hostBefore = bed.host.chain.balances;
    const aliceBefore = (await hostBefore(alice!.address)).find((c) => c.denom === hostDenom)!.amount;
    const claim = await send(bed.host, alice!, {
      typeUrl: '/opinit.ophost.v1.MsgFinalizeTokenWithdrawal',
      value: MsgFinalizeTokenWithdrawal.encode(
        MsgFinalizeTokenWithdrawal.fromPartial(withdrawalClaim(proof, alice!.address)),
      ).finish(),
    });
    await steps(1);
    const result = resultOf(bed.host, claim);
    expect(result.code, result.log).toBe(0);
    const fee = BigInt(Math.ceil(1_000_000 * bed.host.chain.info.minGasPrice));
    const aliceAfter = (await bed.host.chain.balances(alice!.address)).find(
      (c) => c.denom === hostDenom,
    )!.amount;
    expect(BigInt(aliceAfter)).toBe(BigInt(aliceBefore) + 2000n - fee);

    // The escrow holds what the rollup has in circulation.
    const info = (await (await fetch(`${bed.host.servers.urls.rest}/opinit/ophost/v1/bridges/1`)).json()) as {
      bridge_addr: string;
    };
    const escrow = (await bed.host.chain.balances(info.bridge_addr)).find(
      (c) => c.denom === hostDenom,
    )!.amount;
    expect(BigInt(escrow)).toBe(await client.readContract({ ...erc20, functionName: 'totalSupply' }));
  });
});
