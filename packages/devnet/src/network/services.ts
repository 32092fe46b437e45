import type { Logger } from 'weft/common/logger.js';
import type { ControlServer } from '../control/server.js';
import type { NetworkChain } from '../devnet.js';
import type { Registry } from '../registry/writer.js';
import { ibcService } from '../relayers/ibc-service.js';
import { omnichainService } from '../relayers/omnichain-service.js';
import { opinitService } from '../relayers/opinit-service.js';
import type { NetworkSettings } from './plan.js';

/** What a service of the network (a relayer, an executor) is given once every chain is built. */
export interface NetworkContext {
  chains: readonly NetworkChain[];
  /** Add the registry entries the service owns (channels, bridge ids, executor URLs, endpoints). */
  registry: Registry;
  /** Register the service's relayers (pause, resume, delay) and any further `weft_*` method. */
  control: ControlServer;
  host: string;
  blockTimeMs: number;
  seed: string;
  settings: NetworkSettings;
  logger: Logger;
}

/** A started service: it may act after every network step (relay what the blocks emitted) and close. */
export interface RunningService {
  afterStep?(): Promise<void>;
  close?(): Promise<void>;
  /** Written into the manifest under `services.<name>` (e.g. an executor's URL). */
  manifest?(): Record<string, unknown>;
}

/**
 * A service the network runs across its chains. A part plugs in with one line in `NETWORK_SERVICES`;
 * `appliesTo` lets it stay out of networks that lack its chains.
 */
export interface NetworkService {
  readonly name: string;
  appliesTo(chains: readonly NetworkChain[]): boolean;
  start(ctx: NetworkContext): Promise<RunningService> | RunningService;
}

export const NETWORK_SERVICES: NetworkService[] = [opinitService, omnichainService, ibcService];
