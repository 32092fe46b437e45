import { TxRaw } from 'cosmjs-types/cosmos/tx/v1beta1/tx';
import { createPublicClient, type Hex, http, parseAbi } from 'viem';
import type { DevnetChain } from 'weft-devnet/devnet.js';
import type { DevAccount } from 'weft-devnet/keys.js';
import { EthereumAminoSigner, signEip191 } from './eth-signer-support.js';
import { decode, evmChain } from './router-wallet-support.js';

/**
 * InterwovenKit's op-hook flow (`useSignOpHook`) for a wallet of an Ethereum key, the connected wallet
 * being both the deposit's sender on the L1 and its recipient on the rollup: `/op-hook`, the wait for
 * the signer's account on the hook chain, the EIP-191 signature of the hook, and the L1 tx signed the
 * same way.
 */

const ERC20 = parseAbi(['function balanceOf(address) view returns (uint256)']);

export async function postJson(base: string, path: string, body: unknown) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, json: (await response.json()) as any };
}

/** `account_info` of `address` over a chain's REST: number and sequence, or undefined while it has none. */
export async function accountInfo(rest: string, address: string) {
  const response = await fetch(`${rest}/cosmos/auth/v1beta1/account_info/${address}`);
  if (!response.ok) return undefined;
  const { info } = (await response.json()) as { info: { account_number: string; sequence: string } };
  return { accountNumber: BigInt(info.account_number), sequence: Number(info.sequence) };
}

/**
 * InterwovenKit's `waitForAccountCreation` against the hook chain's REST: its 24 polls 5 s apart are a
 * 2-minute budget from when `/op-hook` answered (`since`), polled here every 250 ms; it throws
 * InterwovenKit's own `Timeout: <address> not found` once the budget is spent.
 */
export async function waitForAccountCreation(rest: string, address: string, since = Date.now()) {
  for (;;) {
    const found = await accountInfo(rest, address);
    if (found) return found;
    if (Date.now() - since > 120_000) throw new Error(`Timeout: ${address} not found`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The hook msgs `/op-hook` answered, decoded with the Initia amino types and signed as InterwovenKit signs them. */
export async function signHook(
  wallet: DevAccount,
  answer: { chain_id: string; hook: Array<{ msg: string; msg_type_url: string }> },
  account: { accountNumber: bigint; sequence: number },
  count?: number,
) {
  const tx = await signEip191(new EthereumAminoSigner(wallet), {
    chainId: answer.chain_id,
    messages: answer.hook.map(decode).slice(0, count),
    fee: { amount: [], gas: '1' },
    memo: '',
    accountNumber: account.accountNumber,
    sequence: account.sequence,
  });
  return { signer: wallet.address, hook: Buffer.from(TxRaw.encode(tx).finish()).toString('base64') };
}

/** The ERC20 balance of `holder` on an EVM rollup. */
export const erc20Balance = (chain: DevnetChain, token: Hex, holder: string) =>
  createPublicClient({
    chain: evmChain(chain.chain.info.evmChainId!, chain.urls.jsonRpc!),
    transport: http(),
  }).readContract({ address: token, abi: ERC20, functionName: 'balanceOf', args: [holder as Hex] });

/** The wrapper token of the EVM rollup (`evm/<address>`) and its contract, as `/v2/fungible/assets` lists it. */
export async function wrapperOf(base: string, chainId: string): Promise<{ denom: string; contract: Hex }> {
  const listed = (await (await fetch(`${base}/v2/fungible/assets?chain_ids=${chainId}`)).json()) as any;
  const asset = listed.chain_to_assets_map[chainId].assets.find((a: any) => a.symbol === 'WINIT');
  return { denom: asset.denom, contract: asset.token_contract };
}
