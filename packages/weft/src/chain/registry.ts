import { MsgExecuteContract, MsgInstantiateContract } from '@initia/initia.proto/cosmwasm/wasm/v1/tx.js';
import { MsgTransfer as MsgNftTransfer } from '@initia/initia.proto/ibc/applications/nft_transfer/v1/tx.js';
import { MsgTransfer } from '@initia/initia.proto/ibc/applications/transfer/v1/tx.js';
import {
  MsgAcknowledgement,
  MsgRecvPacket,
  MsgTimeout,
} from '@initia/initia.proto/ibc/core/channel/v1/tx.js';
import { PubKey as EthSecp256k1PubKey } from '@initia/initia.proto/initia/crypto/v1beta1/ethsecp256k1/keys.js';
import { MsgExecute, MsgExecuteJSON } from '@initia/initia.proto/initia/move/v1/tx.js';
import { MsgCall, MsgCreate } from '@initia/initia.proto/minievm/evm/v1/tx.js';
import {
  MsgFinalizeTokenDeposit,
  MsgInitiateTokenWithdrawal,
} from '@initia/opinit.proto/opinit/opchild/v1/tx.js';
import {
  MsgFinalizeTokenWithdrawal,
  MsgInitiateTokenDeposit,
  MsgProposeOutput,
} from '@initia/opinit.proto/opinit/ophost/v1/tx.js';
import { MsgSend } from 'cosmjs-types/cosmos/bank/v1beta1/tx';
import { PubKey as Secp256k1PubKey } from 'cosmjs-types/cosmos/crypto/secp256k1/keys';

/** A protobuf message codec, keyed by type URL in the registry. */
export interface ProtoCodec {
  encode(msg: any): Uint8Array;
  decode(bytes: Uint8Array): any;
  fromPartial(obj: any): any;
}

/** The shape ts-proto (and cosmjs-types) generate: `encode` returns a writer. */
interface GeneratedCodec {
  encode(msg: any): { finish(): Uint8Array };
  decode(bytes: Uint8Array): any;
  fromPartial(obj: any): any;
}

const codec = (generated: GeneratedCodec): ProtoCodec => ({
  encode: (msg) => generated.encode(msg).finish(),
  decode: (bytes) => generated.decode(bytes),
  fromPartial: (obj) => generated.fromPartial(obj),
});

/** Built once: encoding and decoding run for every tx. */
const codecs = new Map<string, ProtoCodec>([
  ['/cosmos.bank.v1beta1.MsgSend', codec(MsgSend)],
  ['/minievm.evm.v1.MsgCall', codec(MsgCall)],
  ['/minievm.evm.v1.MsgCreate', codec(MsgCreate)],
  ['/initia.move.v1.MsgExecute', codec(MsgExecute)],
  ['/initia.move.v1.MsgExecuteJSON', codec(MsgExecuteJSON)],
  ['/cosmwasm.wasm.v1.MsgExecuteContract', codec(MsgExecuteContract)],
  ['/cosmwasm.wasm.v1.MsgInstantiateContract', codec(MsgInstantiateContract)],
  ['/ibc.core.channel.v1.MsgRecvPacket', codec(MsgRecvPacket)],
  ['/ibc.core.channel.v1.MsgAcknowledgement', codec(MsgAcknowledgement)],
  ['/ibc.core.channel.v1.MsgTimeout', codec(MsgTimeout)],
  ['/ibc.applications.transfer.v1.MsgTransfer', codec(MsgTransfer)],
  ['/ibc.applications.nft_transfer.v1.MsgTransfer', codec(MsgNftTransfer)],
  ['/opinit.opchild.v1.MsgFinalizeTokenDeposit', codec(MsgFinalizeTokenDeposit)],
  ['/opinit.opchild.v1.MsgInitiateTokenWithdrawal', codec(MsgInitiateTokenWithdrawal)],
  ['/opinit.ophost.v1.MsgInitiateTokenDeposit', codec(MsgInitiateTokenDeposit)],
  ['/opinit.ophost.v1.MsgProposeOutput', codec(MsgProposeOutput)],
  ['/opinit.ophost.v1.MsgFinalizeTokenWithdrawal', codec(MsgFinalizeTokenWithdrawal)],
  ['/cosmos.crypto.secp256k1.PubKey', codec(Secp256k1PubKey)],
  ['/initia.crypto.v1beta1.ethsecp256k1.PubKey', codec(EthSecp256k1PubKey)],
]);

export class UnknownTypeUrlError extends Error {
  override name = 'UnknownTypeUrlError';
  constructor(readonly typeUrl: string) {
    super(`unable to resolve type URL ${typeUrl}`);
  }
}

/** The codec of a type URL, or undefined when the registry does not know it. */
export function codecOf(typeUrl: string): ProtoCodec | undefined {
  return codecs.get(typeUrl);
}

export function registeredTypeUrls(): string[] {
  return [...codecs.keys()];
}

function requireCodec(typeUrl: string): ProtoCodec {
  const found = codecs.get(typeUrl);
  if (!found) throw new UnknownTypeUrlError(typeUrl);
  return found;
}

/** Packs a message given in ts-proto (camelCase) form into an Any. */
export function encodeAny(typeUrl: string, partial: object): { typeUrl: string; value: Uint8Array } {
  const c = requireCodec(typeUrl);
  return { typeUrl, value: c.encode(c.fromPartial(partial)) };
}

/** Unpacks an Any into its ts-proto message. Throws UnknownTypeUrlError for a type the registry lacks. */
export function decodeAny(any: { typeUrl: string; value: Uint8Array }): any {
  return requireCodec(any.typeUrl).decode(any.value);
}
