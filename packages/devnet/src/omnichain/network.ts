import { sha3_256 } from '@noble/hashes/sha3.js';
import { encodeDeployData, getContractAddress, type Hex, keccak256, pad, toHex } from 'viem';
import { contractArtifacts } from '../evm/contracts.js';
import { STD_ADDRESS } from '../evm/erc20-bank.js';
import { type DevAccount, deriveAccount, type KeyType } from '../keys.js';

/**
 * Who takes part in the omnichain bridge and where its contracts live. Everything derives from the seed
 * and the members' chain ids, so every chain computes the same peers at genesis without talking.
 */

export type OmnichainKind = 'evm' | 'move';

export interface OmnichainMember {
  chainId: string;
  kind: OmnichainKind;
  /** Endpoint id (LayerZero's `eid`). */
  eid: number;
}

/** What one chain needs to deploy its part at genesis. */
export interface OmnichainSetup {
  seed: string;
  self: OmnichainMember;
  members: OmnichainMember[];
}

export const OFT_NAME = 'Omnichain Devnet Token';
export const OFT_SYMBOL = 'ODT';
/** OFT amounts travel in 6 decimals; the EVM token has 18, the Move side 6. */
export const SHARED_DECIMALS = 6;
/** OFT each funded account holds at genesis, in shared-decimal units (1,000 tokens). */
export const GENESIS_OFT_SD = 1_000n * 10n ** 6n;
/** Native messaging fee: base + per message byte (EVM in wei, Move in the fee denom's base unit). */
export const EVM_FEES = { base: 10n ** 15n, perByte: 10n ** 12n };
export const MOVE_FEES = { base: 1_000n, perByte: 10n };

/** The bridge operator's key (endpoint and token owner, verifier and executor), one per key type. */
export function omnichainOperator(seed: string, keyType: KeyType, prefix: string): DevAccount {
  return deriveAccount({ seed, index: 10_002, keyType, prefix, name: 'omnichain' });
}

/** A testnet-like endpoint id (LayerZero's testnets use 40xxx) derived from the chain id. */
export function eidOf(chainId: string): number {
  const digest = sha3_256(new TextEncoder().encode(chainId));
  return 40_100 + (((digest[0]! << 8) | digest[1]!) % 9_000);
}

const salt = (label: string) => keccak256(toHex(`omnichain/${label}`));

/** CREATE2 addresses of the endpoint and the OFT: the same on every EVM chain of one seed. */
export function evmAddresses(operator: Hex): { endpoint: Hex; oft: Hex } {
  const artifacts = contractArtifacts();
  const from = toHex(STD_ADDRESS);
  const endpointCode = encodeDeployData({
    abi: artifacts.OmniEndpoint.abi,
    bytecode: toHex(artifacts.OmniEndpoint.bytecode),
    args: [operator],
  });
  const endpoint = getContractAddress({
    opcode: 'CREATE2',
    from,
    salt: salt('endpoint'),
    bytecode: endpointCode,
  });
  const oftCode = encodeDeployData({
    abi: artifacts.OmniOFT.abi,
    bytecode: toHex(artifacts.OmniOFT.bytecode),
    args: [OFT_NAME, OFT_SYMBOL, endpoint, operator],
  });
  const oft = getContractAddress({ opcode: 'CREATE2', from, salt: salt('oft'), bytecode: oftCode });
  return { endpoint, oft };
}

export const ENDPOINT_SALT = salt('endpoint');
export const OFT_SALT = salt('oft');

/** The Move package of the simulated endpoint and OFT (a 32-byte address, the OFT's peer id). */
export const MOVE_PACKAGE = sha3_256(new TextEncoder().encode('omnichain/package'));

/** The bytes32 a remote OFT knows this member's OFT by. */
export function peerOf(member: OmnichainMember, seed: string): Hex {
  if (member.kind === 'move') return toHex(MOVE_PACKAGE);
  const operator = omnichainOperator(seed, 'ethsecp256k1', 'init');
  return pad(evmAddresses(operator.hexAddress as Hex).oft, { size: 32 });
}
