import { MsgExecuteJSONResponse, MsgExecuteResponse } from '@initia/initia.proto/initia/move/v1/tx.js';
import { fromBech32 } from 'weft/chain/address.js';
import { decodeAny } from 'weft/chain/registry.js';
import { appendMsgIndex } from '../events.js';
import type { MoveNode } from '../node.js';
import type { Auth } from '../state/auth.js';
import type { StateStore } from '../state/store.js';
import { type AnyMsg, type MsgModule, TxError } from '../types.js';
import { padMoveAddress, parseMoveAddress } from './address.js';
import { createMoveExecutor, type MoveExecutor } from './executor.js';
import { readResource } from './resources.js';
import { runView } from './views.js';

export const MSG_EXECUTE = '/initia.move.v1.MsgExecute';
export const MSG_EXECUTE_JSON = '/initia.move.v1.MsgExecuteJSON';

export interface MoveNftModuleOptions {
  /** Bech32 prefix of the chain's accounts. */
  prefix: string;
  /** The chain's state; `node` reads committed heights from it. */
  store: StateStore;
  /** When given, object accounts the VM creates are registered as the keeper does. */
  auth?: Pick<Auth, 'ensure'>;
}

export interface MoveNft {
  module: MsgModule;
  node: MoveNode;
  /** Runs entry functions for other modules (the NFT transfer keeper calls `initia_nft` as `0x1`). */
  executor: MoveExecutor;
}

/** The SDK's bech32 address codec (`StringToBytes`), with its errors. */
export function accAddress(address: string, prefix: string): Uint8Array {
  let decoded: { prefix: string; bytes: Uint8Array };
  try {
    decoded = fromBech32(address);
  } catch (err) {
    throw new TxError('undefined', 1, `decoding bech32 failed: ${(err as Error).message}`);
  }
  if (decoded.prefix !== prefix) {
    throw new TxError(
      'sdk',
      35,
      `hrp does not match bech32 prefix: expected '${prefix}' got '${decoded.prefix}': internal logic error`,
    );
  }
  return decoded.bytes;
}

/** `MsgExecute` / `MsgExecuteJSON` over the simulated NFT entry functions of `0x1`. */
export function createMoveNftModule(options: MoveNftModuleOptions): MoveNft {
  const { prefix, store } = options;
  const executor = createMoveExecutor(options);

  const module: MsgModule = {
    name: 'move',
    typeUrls: [MSG_EXECUTE, MSG_EXECUTE_JSON],
    signers: (msg) => [decodeAny(msg).sender as string],
    execute(ctx, msg: AnyMsg) {
      const m = decodeAny(msg);
      const sender = padMoveAddress(accAddress(m.sender, prefix));
      let moduleAddress: Uint8Array;
      try {
        moduleAddress = parseMoveAddress(m.moduleAddress, prefix);
      } catch (err) {
        throw new TxError('undefined', 1, (err as Error).message);
      }
      if (m.moduleName === '') throw new TxError('sdk', 18, 'empty module name: invalid request');
      if (m.functionName === '') throw new TxError('sdk', 18, 'empty function name: invalid request');
      const events = executor.execute(ctx, {
        senders: [sender],
        moduleAddress,
        moduleName: m.moduleName,
        functionName: m.functionName,
        typeArgs: m.typeArgs,
        args: m.args,
      });
      ctx.events.push(...appendMsgIndex(events, ctx.msgIndex));
      return msg.typeUrl === MSG_EXECUTE
        ? { typeUrl: '/initia.move.v1.MsgExecuteResponse', value: MsgExecuteResponse.encode({}).finish() }
        : {
            typeUrl: '/initia.move.v1.MsgExecuteJSONResponse',
            value: MsgExecuteJSONResponse.encode({}).finish(),
          };
    },
  };

  const node: MoveNode = {
    resource(address, structTag, height) {
      let bytes: Uint8Array;
      try {
        bytes = parseMoveAddress(address, prefix);
      } catch {
        return undefined;
      }
      return readResource(store.at(height ?? store.height), bytes, structTag);
    },
    view: (call, height) => runView(store.at(height ?? store.height), call, prefix),
  };

  return { module, node, executor };
}
