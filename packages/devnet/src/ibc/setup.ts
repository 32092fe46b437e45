import { TRANSFER_PORT, TRANSFER_VERSION } from 'weft/protocol/ics20.js';
import type { VmBase, VmParts } from '../rollup.js';
import { ibcTransferPlan } from '../traffic/ibc-transfer.js';
import { createIbcCore, type IbcCore, MSG_RECV_PACKET } from './core/module.js';
import { type ChannelEnd, putChannel } from './core/store.js';
import { createForwardMiddleware } from './forward/middleware.js';
import { createTransferKeeper, type TransferKeeper } from './transfer/keeper.js';
import { createTransferMsgModule } from './transfer/module.js';

/**
 * IBC on a chain: core packets, ICS-20 transfer under the packet-forward middleware, and the channels the
 * chain opens at genesis (a finished handshake). A module that already receives packets (ICS-721) keeps its
 * ports: core hands it the packets of ports no application is bound to.
 */

export interface IbcChannelConfig {
  channelId: string;
  counterparty: {
    chainId: string;
    channelId: string;
    port?: string /** bech32 prefix, `init` by default. */;
    prefix?: string;
  };
  port?: string;
  /** The channel's app version (`ics20-1` by default). */
  version?: string;
  connectionId?: string;
  clientId?: string;
}

export interface IbcOptions {
  channels: IbcChannelConfig[];
  /** Packet-forward middleware over transfer; on by default. */
  forward?: boolean;
  /** Adds ICS-20 transfers over the channels to the chain's traffic; on by default. */
  traffic?: boolean;
}

export interface IbcParts {
  core: IbcCore;
  transfer: TransferKeeper;
}

function channelEnd(config: IbcChannelConfig): ChannelEnd {
  const n = config.channelId.slice('channel-'.length);
  const m = config.counterparty.channelId.slice('channel-'.length);
  return {
    portId: config.port ?? TRANSFER_PORT,
    channelId: config.channelId,
    state: 'STATE_OPEN',
    ordering: 'ORDER_UNORDERED',
    counterparty: {
      portId: config.counterparty.port ?? TRANSFER_PORT,
      channelId: config.counterparty.channelId,
    },
    connectionHops: [config.connectionId ?? `connection-${n}`],
    version: config.version ?? TRANSFER_VERSION,
    clientId: config.clientId ?? `07-tendermint-${n}`,
    counterpartyChainId: config.counterparty.chainId,
    counterpartyConnectionId: `connection-${m}`,
    counterpartyClientId: `07-tendermint-${m}`,
  };
}

/** Adds IBC to a chain's parts. */
export function withIbc(base: VmBase, parts: VmParts, options: IbcOptions): VmParts & { ibc: IbcParts } {
  const receivers = parts.modules.filter((m) => m.typeUrls.includes(MSG_RECV_PACKET));
  const others = parts.modules.filter((m) => !receivers.includes(m));
  const core = createIbcCore({ fallback: receivers[0] });
  const transfer = createTransferKeeper({
    core,
    bank: parts.bank ?? base.bank,
    auth: base.auth,
    prefix: base.info.bech32Prefix,
  });
  if (options.forward !== false)
    core.bind(createForwardMiddleware({ core, transfer, prefix: base.info.bech32Prefix }));
  return {
    ...parts,
    modules: [...others, core.module, createTransferMsgModule(transfer)],
    plans:
      options.traffic === false
        ? parts.plans
        : [
            ...parts.plans,
            ibcTransferPlan({
              channels: options.channels
                .filter((c) => (c.port ?? TRANSFER_PORT) === TRANSFER_PORT)
                .map((c) => ({
                  channelId: c.channelId,
                  counterpartyPrefix: c.counterparty.prefix ?? 'init',
                })),
            }),
          ],
    async genesis(ctx) {
      await parts.genesis?.(ctx);
      for (const config of options.channels) {
        const end = channelEnd(config);
        putChannel(ctx.store, end);
        base.auth.ensure(ctx.store, transfer.escrowAddress(end.portId, end.channelId));
      }
    },
    ibc: { core, transfer },
  };
}
