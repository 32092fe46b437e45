import { type Abi, encodeDeployData, encodeFunctionData, getContractAddress, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { encodeAny } from 'weft/chain/registry.js';
import type { ContractArtifacts, ContractName } from '../evm/contracts.js';
import type { DevAccount } from '../keys.js';
import { successfulTxEvents } from './events.js';
import type { PlannedTx, TrafficPlan } from './generator.js';

const MSG_CALL = '/minievm.evm.v1.MsgCall';
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

export interface EvmTrafficOptions {
  accounts: readonly DevAccount[];
  artifacts: ContractArtifacts;
  evmChainId: number;
  /** Wei per gas of the Ethereum txs. */
  gasPrice: bigint;
  /** Every tx an Ethereum tx (an Ethereum chain has no Cosmos txs). */
  ethOnly?: boolean;
}

interface Deployed {
  address: Hex;
  ready: boolean;
}

interface Erc721 extends Deployed {
  owners: Map<bigint, DevAccount>;
  nextId: bigint;
}

/**
 * EVM traffic: contracts deployed by Ethereum txs (`eth_sendRawTransaction`), then ERC20 mints and
 * transfers, ERC721 mint/transfer/burn, nested calls (CALL → CALL → STATICCALL, DELEGATECALL), caught
 * inner reverts and reverting txs — half signed as Cosmos `MsgCall`s, half as Ethereum txs.
 */
export function evmTrafficPlans(options: EvmTrafficOptions): TrafficPlan[] {
  const { accounts, artifacts } = options;
  const byHex = new Map(accounts.map((a) => [a.hexAddress.toLowerCase(), a]));
  const erc20s: Deployed[] = [];
  const erc721s: Erc721[] = [];
  const nesters: Deployed[] = [];
  const erc20Holders = new Set<DevAccount>();
  const busy = new Set<string>();

  const abiOf = (name: ContractName) => artifacts[name].abi as Abi;
  const calldata = (name: ContractName, functionName: string, args: unknown[]) =>
    encodeFunctionData({ abi: abiOf(name), functionName, args });

  const ethTx = (
    signer: DevAccount,
    request: { to?: Hex; data: Hex; gas?: bigint },
    onNonce?: (nonce: bigint) => void,
    expectFailure?: boolean,
  ): PlannedTx => ({
    kind: 'eth',
    signer,
    expectFailure,
    async build(nonce) {
      onNonce?.(nonce);
      const serialized = await privateKeyToAccount(signer.privateKey as Hex).signTransaction({
        type: 'eip1559',
        chainId: options.evmChainId,
        nonce: Number(nonce),
        gas: request.gas ?? 1_000_000n,
        maxFeePerGas: options.gasPrice,
        maxPriorityFeePerGas: 0n,
        ...(request.to ? { to: request.to } : {}),
        data: request.data,
      });
      return Buffer.from(serialized.slice(2), 'hex');
    },
  });

  const callTx = (
    signer: DevAccount,
    to: Hex,
    data: Hex,
    viaEth: boolean,
    expectFailure?: boolean,
  ): PlannedTx =>
    viaEth
      ? ethTx(signer, { to, data }, undefined, expectFailure)
      : {
          kind: 'cosmos',
          signer,
          expectFailure,
          msgs: [
            encodeAny(MSG_CALL, {
              sender: signer.address,
              contractAddr: to,
              input: data,
              value: '0',
              accessList: [],
              authList: [],
            }),
          ],
        };

  const deploy = (
    list: Deployed[] | Erc721[],
    signer: DevAccount,
    name: ContractName,
    args: unknown[],
  ): PlannedTx => {
    const data = encodeDeployData({
      abi: abiOf(name),
      bytecode: `0x${Buffer.from(artifacts[name].bytecode).toString('hex')}`,
      args,
    });
    return ethTx(signer, { data, gas: 3_000_000n }, (nonce) => {
      const address = getContractAddress({ from: signer.hexAddress as Hex, nonce }).toLowerCase() as Hex;
      (list as Erc721[]).push({ address, ready: false, owners: new Map(), nextId: 1n });
    });
  };

  const markReady = (record: Parameters<NonNullable<TrafficPlan['observe']>>[0]) => {
    for (const e of successfulTxEvents(record)) {
      if (e.type !== 'contract_created' && e.type !== 'create') continue;
      const address = e.attrs.get('contract')?.toLowerCase();
      for (const d of [...erc20s, ...erc721s, ...nesters]) if (d.address === address) d.ready = true;
    }
  };

  const tokens: TrafficPlan = {
    name: 'evm-tokens',
    weight: 8,
    observe(record) {
      busy.clear();
      markReady(record);
      for (const e of successfulTxEvents(record)) {
        if (e.type !== 'evm') continue;
        for (const { key, value } of e.list) {
          if (key !== 'log') continue;
          const log = JSON.parse(value) as { address: string; topics?: string[] };
          const topics = log.topics ?? [];
          if (topics[0] !== TRANSFER_TOPIC) continue;
          const collection = erc721s.find((c) => c.address === log.address.toLowerCase());
          if (collection && topics.length === 4) {
            const to = byHex.get(`0x${topics[2]!.slice(26)}`);
            const id = BigInt(topics[3]!);
            if (to) collection.owners.set(id, to);
            else collection.owners.delete(id);
          }
          const token = erc20s.find((c) => c.address === log.address.toLowerCase());
          if (token && topics.length === 3) {
            const to = byHex.get(`0x${topics[2]!.slice(26)}`);
            if (to) erc20Holders.add(to);
          }
        }
      }
    },
    next({ rng }) {
      const signer = rng.pick(accounts);
      const viaEth = rng.chance(0.5) || options.ethOnly === true;
      const readyErc20 = erc20s.filter((d) => d.ready);
      const readyErc721 = erc721s.filter((d) => d.ready);
      if (erc20s.length === 0) return deploy(erc20s, signer, 'TestERC20', ['Devnet Token', 'DVT', 18]);
      if (erc721s.length === 0) return deploy(erc721s, signer, 'TestERC721', ['Devnet NFT', 'DNFT']);
      if (readyErc20.length === 0 || readyErc721.length === 0) return undefined;
      const nfts = readyErc721
        .flatMap((c) => [...c.owners.entries()].map(([id, owner]) => ({ c, id, owner })))
        .filter(({ c, id }) => !busy.has(`${c.address}/${id}`));
      const holders = [...erc20Holders];
      const action = rng.weighted({
        mint20: holders.length < accounts.length ? 3 : 0.5,
        transfer20: holders.length > 0 ? 6 : 0,
        mint721: 3,
        transfer721: nfts.length > 0 ? 3 : 0,
        burn721: nfts.length > 3 ? 1 : 0,
      });
      const erc20 = rng.pick(readyErc20).address;
      switch (action) {
        case 'mint20': {
          const to = rng.pick(accounts);
          return callTx(signer, erc20, calldata('TestERC20', 'mint', [to.hexAddress, 10n ** 24n]), viaEth);
        }
        case 'transfer20': {
          const from = rng.pick(holders);
          const to = rng.pick(accounts.filter((a) => a !== from));
          return callTx(
            from,
            erc20,
            calldata('TestERC20', 'transfer', [to.hexAddress, BigInt(rng.int(1, 1_000_000)) * 10n ** 12n]),
            viaEth,
          );
        }
        case 'mint721': {
          const c = rng.pick(readyErc721);
          const id = c.nextId;
          c.nextId += 1n;
          busy.add(`${c.address}/${id}`);
          const to = rng.pick(accounts);
          return callTx(
            signer,
            c.address,
            calldata('TestERC721', 'mint', [to.hexAddress, id, `ipfs://devnet/${c.address}/${id}`]),
            viaEth,
          );
        }
        case 'transfer721': {
          const { c, id, owner } = rng.pick(nfts);
          busy.add(`${c.address}/${id}`);
          const to = rng.pick(accounts.filter((a) => a !== owner));
          return callTx(
            owner,
            c.address,
            calldata('TestERC721', 'transferFrom', [owner.hexAddress, to.hexAddress, id]),
            viaEth,
          );
        }
        default: {
          const { c, id, owner } = rng.pick(nfts);
          busy.add(`${c.address}/${id}`);
          return callTx(owner, c.address, calldata('TestERC721', 'burn', [id]), viaEth);
        }
      }
    },
  };

  const nested: TrafficPlan = {
    name: 'evm-nested',
    weight: 2,
    observe: markReady,
    next({ rng }) {
      const signer = rng.pick(accounts);
      if (nesters.length === 0) return deploy(nesters, signer, 'Nester', []);
      const ready = nesters.filter((d) => d.ready);
      if (ready.length === 0) return undefined;
      const nester = rng.pick(ready).address;
      const viaEth = rng.chance(0.5) || options.ethOnly === true;
      const action = rng.weighted({ nest: 4, innerRevert: 2, revert: 1 });
      if (action === 'nest')
        return callTx(signer, nester, calldata('Nester', 'nest', [BigInt(rng.int(1, 1000))]), viaEth);
      if (action === 'innerRevert')
        return callTx(signer, nester, calldata('Nester', 'nestWithInnerRevert', []), viaEth);
      return callTx(signer, nester, calldata('Nester', 'nestAndRevert', []), viaEth, true);
    },
  };

  return [tokens, nested];
}
