import { AminoTypes } from '@cosmjs/stargate';
import { aminoConverters } from '@initia/amino-converter';
import { decodeFunctionData, getAddress, parseAbi } from 'viem';
import { describe, expect, it } from 'vitest';
import { toBech32 } from '../../chain/address.js';
import type { ChainAddress } from './addresses.js';
import { aminoMsg } from './amino.js';
import { unwrapThen } from './unwrap.js';

/**
 * The msgs out of a wrapper, decoded with the functions of minievm's ERC20Wrapper as its source declares
 * them (x/evm/contracts/erc20_wrapper/ERC20Wrapper.sol) and with the Initia amino types a wallet uses.
 */

const ERC20_WRAPPER = parseAbi([
  'function toRemoteAndOPWithdraw(string receiver, string localDenom, uint localAmount)',
  'function toRemoteAndIBCTransfer(string localDenom, uint localAmount, string channel, string receiver, uint timeout, string memo)',
  'function approve(address spender, uint256 value) returns (bool)',
  'function unwrap(uint256 amount)',
]);
const aminoTypes = new AminoTypes(aminoConverters);
const bytes = Uint8Array.from({ length: 20 }, (_, i) => i + 1);
const sender: ChainAddress = { chainId: 'evm-1', bech32: toBech32('init', bytes), bytes };
const WRAPPER = '0xB24905344757Bf9CE80442fE1245A9019ee2d749';
const TOKEN = '0xdf5A85F89731fEB77d7EEaaCe627EB135eDB46DB';
const LOCAL = `evm/${TOKEN.slice(2)}`;
const decimal = {
  kind: 'to_remote',
  wrapper: WRAPPER,
  underlying: 'l2/fe80',
  token: TOKEN,
  localDecimals: 18,
  remoteDecimals: 6,
} as const;
const then = (denom: string, amount: bigint) =>
  aminoMsg('/opinit.opchild.v1.MsgInitiateTokenWithdrawal', {
    sender: sender.bech32,
    to: 'init1receiver',
    amount: { denom, amount: String(amount) },
  });

/** A MsgCall as the chain runs it: the contract and the decoded call. */
function call(msg: { msg: string; msg_type_url: string }) {
  const decoded = aminoTypes.fromAmino({ type: 'evm/MsgCall', value: JSON.parse(msg.msg) });
  expect(decoded.typeUrl).toBe(msg.msg_type_url);
  return {
    contract: getAddress(decoded.value.contractAddr),
    sender: decoded.value.sender,
    ...decodeFunctionData({ abi: ERC20_WRAPPER, data: decoded.value.input }),
  };
}

describe('unwrapThen', () => {
  it('approves the Decimal Wrapper and calls toRemoteAndOPWithdraw(receiver, localDenom, localAmount)', () => {
    const msgs = unwrapThen(decimal, sender, LOCAL, 10n ** 18n, then, { withdrawTo: 'init1receiver' });
    expect(msgs.map(call)).toEqual([
      { contract: TOKEN, sender: sender.bech32, functionName: 'approve', args: [WRAPPER, 10n ** 18n] },
      {
        contract: WRAPPER,
        sender: sender.bech32,
        functionName: 'toRemoteAndOPWithdraw',
        args: ['init1receiver', LOCAL, 10n ** 18n],
      },
    ]);
  });

  it('calls toRemoteAndIBCTransfer with the channel, receiver, timeout and memo ("{}" for none)', () => {
    const ibc = { channel: 'channel-3', receiver: 'init1far', timeoutNs: 5n, memo: '' };
    const [, send] = unwrapThen(decimal, sender, LOCAL, 7n, then, { ibc }).map(call);
    expect(send).toMatchObject({
      functionName: 'toRemoteAndIBCTransfer',
      args: [LOCAL, 7n, 'channel-3', 'init1far', 5n, '{}'],
    });
    const memo = '{"forward":{"receiver":"cosmos1x"}}';
    const [, forwarded] = unwrapThen(decimal, sender, LOCAL, 7n, then, { ibc: { ...ibc, memo } }).map(call);
    expect(forwarded!.args.at(-1)).toBe(memo);
  });

  it("unwraps 1:1 then sends the hop's own msg for the coin paid out", () => {
    const unwrap = { kind: 'unwrap', wrapper: WRAPPER, underlying: 'l2/abcd' } as const;
    const [first, second] = unwrapThen(unwrap, sender, LOCAL, 9n, then, { withdrawTo: 'init1receiver' });
    expect(call(first!)).toMatchObject({ contract: WRAPPER, functionName: 'unwrap', args: [9n] });
    expect(JSON.parse(second!.msg)).toMatchObject({ amount: { denom: 'l2/abcd', amount: '9' } });
  });
});
