import { createHash } from 'node:crypto';
import type { ChainNode } from '../node.js';

/** What the node says about itself, the same on every surface. */

/** The CometBFT release minievm ships with. */
export const COMET_VERSION = '0.38.21';
/** The app version; rollytics gates internal-tx indexing on ≥ v1.1.0. */
export const APP_VERSION = 'v1.1.0';
export const COSMOS_SDK_VERSION = 'v0.50.13';
/** The p2p channel ids a CometBFT node advertises, as hex. */
export const P2P_CHANNELS_HEX = '40202122233038606100';

/** The p2p node id: hex of the first 20 bytes of sha256 of the consensus key (stable for a chain). */
export function nodeId(node: ChainNode): string {
  return createHash('sha256')
    .update(Buffer.from(node.validator().pubKeyBase64, 'base64'))
    .digest('hex')
    .slice(0, 40);
}

export function appName(node: ChainNode): string {
  if (node.info.role === 'l1') return 'initia';
  if (node.info.role === 'external-cosmos') return 'gaia';
  return `mini${node.info.vm}`;
}
