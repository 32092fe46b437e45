import { MsgCallResponse } from '@initia/initia.proto/minievm/evm/v1/tx.js';
import { MsgSend } from 'cosmjs-types/cosmos/bank/v1beta1/tx';
import { TxMsgData } from 'cosmjs-types/cosmos/base/abci/v1beta1/abci';
import { decodeFunctionResult, encodeFunctionData, getAddress, keccak256, pad, toHex } from 'viem';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BlockRecord, ExecTxResultJson } from '../node.js';
import { createEvmTestbed, type EvmTestbed } from '../test-support/evm-testbed.js';
import type { CallFrameJson } from './call-tracer.js';

const TRANSFER = keccak256(toHex('Transfer(address,address,uint256)'));

/** The events a msg emitted: everything after its `message` event. */
function msgEvents(result: ExecTxResultJson) {
  const start = result.events.findIndex((e) => e.type === 'message' && e.attributes?.[0]?.key === 'action');
  return result.events.slice(start + 1).map((e) => ({
    type: e.type,
    attributes: Object.fromEntries((e.attributes ?? []).map((a) => [a.key, a.value])),
    logs: (e.attributes ?? []).filter((a) => a.key === 'log').map((a) => a.value),
  }));
}

const createdContract = (block: BlockRecord, tx = 0) =>
  block.txs[tx]!.result.events.find((e) => e.type === 'create')!.attributes!.find(
    (a) => a.key === 'contract',
  )!.value;

const frameKeys = (frame: CallFrameJson) => Object.keys(frame);

describe('evm module on a chain', () => {
  let tb: EvmTestbed;
  beforeAll(async () => {
    tb = await createEvmTestbed();
  });

  it('deploys a contract and an ERC20 transfer emits exactly minievm events', async () => {
    const [alice, bob] = tb.accounts;
    await tb.sendCosmos(alice!, [tb.createMsg(alice!, 'TestERC20', ['Test', 'TST', 18])], 2_000_000n);
    const deployed = await tb.produce();
    expect(deployed.txs[0]!.result.code).toBe(0);
    const token = createdContract(deployed);
    expect(token).toBe(getAddress(token));
    const deployEvents = msgEvents(deployed.txs[0]!.result);
    expect(deployEvents.map((e) => e.type)).toEqual(['contract_created', 'create', 'evm']);
    expect(deployEvents[1]!.attributes.ret).toBe(tb.node.code(token));
    expect(deployEvents[2]).toEqual({ type: 'evm', attributes: { msg_index: '0' }, logs: [] });

    await tb.sendCosmos(alice!, [tb.callMsg(alice!, token, 'TestERC20', 'mint', [alice!.hexAddress, 1000n])]);
    await tb.sendCosmos(alice!, [
      tb.callMsg(alice!, token, 'TestERC20', 'transfer', [bob!.hexAddress, 250n]),
    ]);
    const block = await tb.produce();
    const transfer = block.txs[1]!;
    expect(transfer.result.code).toBe(0);
    const log = JSON.stringify({
      address: token,
      topics: [TRANSFER, pad(alice!.hexAddress as `0x${string}`), pad(bob!.hexAddress as `0x${string}`)],
      data: pad(toHex(250n)),
    });
    expect(msgEvents(transfer.result)).toEqual([
      { type: 'call', attributes: { contract: token, ret: pad(toHex(1n)), msg_index: '0' }, logs: [] },
      { type: 'evm', attributes: { log, msg_index: '0' }, logs: [log] },
    ]);
    const response = MsgCallResponse.decode(
      TxMsgData.decode(Buffer.from(transfer.result.data!, 'base64')).msgResponses[0]!.value,
    );
    expect(response.result).toBe(pad(toHex(1n)));
    expect(response.logs).toEqual([JSON.parse(log)]);

    // A cosmos-signed tx that logged gets minievm's stand-in receipt: every evm log, fees included.
    const receipt = block.evm!.receipts[1] as Record<string, any>;
    expect(receipt.transactionHash).toBe(transfer.ethHash);
    expect(receipt.transactionIndex).toBe('0x2');
    expect(receipt.logs).toHaveLength(2);
    expect(receipt.logs[1]).toMatchObject({
      address: token.toLowerCase(),
      logIndex: '0x3',
      transactionIndex: '0x2',
    });
    expect(block.evm!.transactions[1]).toMatchObject({
      input: `0x${transfer.hash.toLowerCase()}`,
      from: `0x${'0'.repeat(40)}`,
      chainId: '0x7fffffffffffffee',
    });
    expect(
      await tb.node.call({
        to: token,
        data: encodeFunctionData({
          abi: tb.evm.artifacts.TestERC20.abi,
          functionName: 'balanceOf',
          args: [bob!.hexAddress as `0x${string}`],
        }),
      }),
    ).toMatchObject({
      returnData: pad(toHex(250n)),
    });
  });

  it('logs ERC721 mints, transfers and burns with four topics and no data', async () => {
    const [alice, bob] = tb.accounts;
    await tb.sendCosmos(alice!, [tb.createMsg(alice!, 'TestERC721', ['Art', 'ART'])], 3_000_000n);
    const nft = createdContract(await tb.produce());
    await tb.sendCosmos(alice!, [
      tb.callMsg(alice!, nft, 'TestERC721', 'mint', [alice!.hexAddress, 7n, 'ipfs://7']),
    ]);
    await tb.sendCosmos(alice!, [
      tb.callMsg(alice!, nft, 'TestERC721', 'transferFrom', [alice!.hexAddress, bob!.hexAddress, 7n]),
    ]);
    await tb.sendCosmos(bob!, [tb.callMsg(bob!, nft, 'TestERC721', 'burn', [7n])]);
    const block = await tb.produce();
    const nftLogs = block.txs.map((tx) => {
      expect(tx.result.code).toBe(0);
      const evm = msgEvents(tx.result).find((e) => e.type === 'evm')!;
      return evm.logs.map((l) => JSON.parse(l)).filter((l) => l.address === nft);
    });
    const zero = pad('0x00');
    const id = pad(toHex(7n));
    const a = pad(alice!.hexAddress as `0x${string}`);
    const b = pad(bob!.hexAddress as `0x${string}`);
    expect(nftLogs).toEqual([
      [{ address: nft, topics: [TRANSFER, zero, a, id], data: '0x' }],
      [{ address: nft, topics: [TRANSFER, a, b, id], data: '0x' }],
      [{ address: nft, topics: [TRANSFER, b, zero, id], data: '0x' }],
    ]);
  });

  it('traces CALL → CALL → STATICCALL and a DELEGATECALL with the callTracer field set', async () => {
    const [alice, bob] = tb.accounts;
    await tb.sendCosmos(alice!, [tb.createMsg(alice!, 'Nester')], 3_000_000n);
    const nester = createdContract(await tb.produce());
    const { hash } = await tb.sendEth(bob!, {
      to: nester as `0x${string}`,
      data: encodeFunctionData({ abi: tb.evm.artifacts.Nester.abi, functionName: 'nest', args: [9n] }),
    });
    const block = await tb.produce();
    expect(block.txs[0]!.ethHash).toBe(hash);
    const trace = block.evm!.traces.find((t) => t.txHash === hash)!.result as unknown as CallFrameJson;
    // minievm's tracer wraps the tx in a frame from and to the zero address; the fee payment comes first.
    expect(frameKeys(trace)).toEqual(['from', 'gas', 'gasUsed', 'to', 'input', 'calls', 'type']);
    expect(trace).toMatchObject({ from: `0x${'0'.repeat(40)}`, gas: '0xf4240', input: '0x', type: 'CALL' });
    expect(trace.gasUsed).toBe(`0x${BigInt(block.txs[0]!.result.gas_used).toString(16)}`);
    const [fee, call] = trace.calls!;
    expect(fee).toMatchObject({ from: `0x${'0'.repeat(39)}1`, type: 'CALL' });
    expect(frameKeys(call!)).toEqual([
      'from',
      'gas',
      'gasUsed',
      'to',
      'input',
      'output',
      'calls',
      'value',
      'type',
    ]);
    expect(call).toMatchObject({
      from: bob!.hexAddress,
      to: nester.toLowerCase(),
      value: '0x0',
      type: 'CALL',
    });
    const [relay, poke] = call!.calls!;
    expect(relay!.type).toBe('CALL');
    expect(relay!.calls!.map((f) => f.type)).toEqual(['STATICCALL']);
    expect(frameKeys(relay!.calls![0]!)).toEqual(['from', 'gas', 'gasUsed', 'to', 'input', 'output', 'type']);
    expect(poke).toMatchObject({ type: 'DELEGATECALL', from: nester.toLowerCase(), value: '0x0' });
    expect(poke!.output).toBeUndefined();
    expect(poke!.calls).toBeUndefined();
  });

  it('logs a Transfer of the fee token for each value move, inner calls included, but not for a reverted one', async () => {
    const [alice, bob] = tb.accounts;
    await tb.sendCosmos(alice!, [tb.createMsg(alice!, 'Nester')], 3_000_000n);
    const nester = createdContract(await tb.produce()) as `0x${string}`;
    const bobBefore = await tb.node.balance(bob!.hexAddress);
    const { hash } = await tb.sendEth(alice!, {
      to: nester,
      data: encodeFunctionData({
        abi: tb.evm.artifacts.Nester.abi,
        functionName: 'share',
        args: [bob!.hexAddress as `0x${string}`],
      }),
      value: 1000n,
    });
    const block = await tb.produce();
    const tx = block.txs.find((t) => t.ethHash === hash)!;
    expect(tx.result.code).toBe(0);
    const gas = getAddress(tb.node.contractByDenom('GAS')!);
    const word = (a: string) => pad(a.toLowerCase() as `0x${string}`);
    const transfer = (from: string, to: string, amount: bigint) =>
      JSON.stringify({ address: gas, topics: [TRANSFER, word(from), word(to)], data: pad(toHex(amount)) });
    expect(msgEvents(tx.result).find((e) => e.type === 'evm')!.logs).toEqual([
      transfer(alice!.hexAddress, nester, 1000n),
      transfer(nester, bob!.hexAddress, 500n),
    ]);
    expect(await tb.node.balance(bob!.hexAddress)).toBe(bobBefore + 500n);
    expect(await tb.node.balance(nester)).toBe(500n);
  });

  it('marks a caught inner revert on its frame and keeps the tx successful', async () => {
    const [alice] = tb.accounts;
    await tb.sendCosmos(alice!, [tb.createMsg(alice!, 'Nester')], 3_000_000n);
    const nester = createdContract(await tb.produce());
    await tb.sendCosmos(alice!, [tb.callMsg(alice!, nester, 'Nester', 'nestWithInnerRevert')]);
    const block = await tb.produce();
    expect(block.txs[0]!.result.code).toBe(0);
    const call = (block.evm!.traces[0]!.result as unknown as CallFrameJson).calls![1]!;
    expect(call.error).toBeUndefined();
    const boom = call.calls![1]!;
    expect(boom).toMatchObject({ type: 'CALL', error: 'execution reverted', revertReason: 'inner failure' });
    expect(frameKeys(boom)).toEqual([
      'from',
      'gas',
      'gasUsed',
      'to',
      'input',
      'output',
      'error',
      'revertReason',
      'value',
      'type',
    ]);
  });

  it('fails a reverting tx with minievm error and leaves its state unchanged', async () => {
    const [alice, bob] = tb.accounts;
    await tb.sendCosmos(alice!, [tb.createMsg(alice!, 'Nester')], 3_000_000n);
    const nester = createdContract(await tb.produce());
    const middle = async () =>
      (
        await tb.node.call({
          to: nester,
          data: encodeFunctionData({ abi: tb.evm.artifacts.Nester.abi, functionName: 'middle' }),
        })
      ).returnData;
    const relays = async () => {
      const address = decodeFunctionResult({
        abi: tb.evm.artifacts.Nester.abi,
        functionName: 'middle',
        data: (await middle()) as `0x${string}`,
      });
      const data = encodeFunctionData({ abi: tb.evm.artifacts.Middle.abi, functionName: 'relays' });
      return (await tb.node.call({ to: address as string, data })).returnData;
    };
    const before = await relays();

    await tb.sendCosmos(alice!, [tb.callMsg(alice!, nester, 'Nester', 'nestAndRevert')]);
    const { hash } = await tb.sendEth(bob!, {
      to: nester as `0x${string}`,
      data: encodeFunctionData({ abi: tb.evm.artifacts.Nester.abi, functionName: 'nestAndRevert' }),
    });
    const block = await tb.produce();
    for (const tx of block.txs) {
      expect(tx.result).toMatchObject({
        code: 23,
        codespace: 'evm',
        log: 'failed to execute message; message index: 0: revert: nester failed: Reverted',
      });
    }
    expect(await relays()).toBe(before);
    // The failed cosmos tx has no Ethereum view; the failed Ethereum tx keeps one with status 0.
    expect(block.txs[0]!.ethHash).toBeUndefined();
    expect(block.evm!.receipts).toHaveLength(1);
    expect(block.evm!.receipts[0]).toMatchObject({
      transactionHash: hash,
      status: '0x0',
      logs: [],
      transactionIndex: '0x1',
    });
    const root = block.evm!.traces[0]!.result as unknown as CallFrameJson;
    expect(root).toMatchObject({
      gasUsed: '0x0',
      error: 'execution reverted',
      revertReason: 'nester failed',
    });
    expect(root.calls![1]).toMatchObject({ error: 'execution reverted', revertReason: 'nester failed' });
  });

  it('answers eth_call and balances as of a past height', async () => {
    const [alice, bob] = tb.accounts;
    const bobBefore = await tb.node.balance(bob!.hexAddress);
    const heightBefore = tb.chain.latestHeight();
    await tb.sendCosmos(alice!, [
      {
        typeUrl: '/cosmos.bank.v1beta1.MsgSend',
        value: MsgSend.encode({
          fromAddress: alice!.address,
          toAddress: bob!.address,
          amount: [{ denom: 'GAS', amount: '12345' }],
        }).finish(),
      },
    ]);
    const block = await tb.produce();
    expect(block.txs[0]!.result.code).toBe(0);
    expect(await tb.node.balance(bob!.hexAddress)).toBe(bobBefore + 12345n);
    expect(await tb.node.balance(bob!.hexAddress, heightBefore)).toBe(bobBefore);
    const gas = tb.node.contractByDenom('GAS')!;
    const balanceOf = encodeFunctionData({
      abi: tb.evm.artifacts.NativeERC20.abi,
      functionName: 'balanceOf',
      args: [bob!.hexAddress as `0x${string}`],
    });
    expect((await tb.node.call({ to: gas, data: balanceOf }, heightBefore)).returnData).toBe(
      pad(toHex(bobBefore)),
    );
    expect((await tb.node.call({ to: gas, data: balanceOf })).returnData).toBe(
      pad(toHex(bobBefore + 12345n)),
    );
    expect(tb.node.denomByContract(gas)).toBe('GAS');
  });
});
