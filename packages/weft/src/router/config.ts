import { secp256k1 } from '@noble/curves/secp256k1.js';
import { type ConfigSource, hostSetting, loadSettings, logSettings, parse } from '../common/config.js';
import { ConfigError } from '../common/errors.js';
import { DEFAULT_DATA_DIR } from '../store/db.js';
import { storeSettings } from '../store/settings.js';
import type { NodeOverrides } from './registry/types.js';

const SURFACES = { rpc: 'rpc', rest: 'rest', 'json-rpc': 'jsonRpc' } as const;

/** `weft-l1-1.rest=http://…,31337.json-rpc=http://…`: node URLs that win over the registry's `apis`. */
function parseNodes(raw: string, name: string): NodeOverrides {
  const out: NodeOverrides = {};
  for (const entry of raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const m = /^(.+)\.(rpc|rest|json-rpc)=(https?:\/\/.+)$/.exec(entry);
    if (!m) throw new ConfigError(name, `"${entry}" is not <chain id>.<rpc|rest|json-rpc>=<http(s) URL>`);
    const surface = SURFACES[m[2] as keyof typeof SURFACES];
    out[m[1]!] = { ...out[m[1]!], [surface]: m[3]!.replace(/\/+$/, '') };
  }
  return out;
}

/**
 * A secp256k1 private key as 0x and 64 hex digits. It is a secret: the error never repeats the value,
 * which may be a real key with a typo.
 */
function parsePrivateKey(raw: string, name: string): string {
  const hex = /^0x([0-9a-fA-F]{64})$/.exec(raw.trim())?.[1];
  if (!hex || !secp256k1.utils.isValidSecretKey(Buffer.from(hex, 'hex')))
    throw new ConfigError(
      name,
      'is not a secp256k1 private key (0x and 64 hex digits; the value is not shown)',
    );
  return `0x${hex.toLowerCase()}`;
}

export const routerSettings = {
  registry: {
    flag: 'registry',
    env: 'REGISTRY',
    description:
      "initia-registry style folder or URL of the chains and assets (the devnet manifest's `registry`)",
    parse: parse.string,
  },
  nodes: {
    flag: 'nodes',
    env: 'ROUTER_NODES',
    description: 'node URL overrides, comma-separated <chain id>.<rpc|rest|json-rpc>=<URL>',
    parse: parseNodes,
    default: {} as NodeOverrides,
    defaultText: 'none',
  },
  host: hostSetting,
  port: { flag: 'port', env: 'PORT', description: 'HTTP port', parse: parse.int(0, 65_535), default: 8090 },
  nodeTimeoutMs: {
    flag: 'node-timeout',
    env: 'ROUTER_NODE_TIMEOUT_MS',
    description: 'timeout of one node request, ms',
    parse: parse.int(100, 60_000),
    default: 5000,
  },
  ibcTimeoutSeconds: {
    flag: 'ibc-timeout',
    env: 'ROUTER_IBC_TIMEOUT_SECONDS',
    description:
      "an IBC transfer's timeout when a /msgs request names none (InterwovenKit never does), s from the destination's time",
    parse: parse.int(1, 7 * 24 * 3600),
    default: 300,
  },
  trackingLeaseMs: {
    flag: 'tracking-lease',
    env: 'ROUTER_TRACKING_LEASE_MS',
    description:
      'how long a router holds a tracked transfer without renewing; a router that dies leaves its transfers to the others after it, ms',
    parse: parse.int(1000, 600_000),
    default: 15_000,
  },
  trackingUnseenRetentionMs: {
    flag: 'tracking-unseen-retention',
    env: 'ROUTER_TRACKING_UNSEEN_RETENTION_MS',
    description:
      'how long an abandoned tracked transfer whose source tx was never seen is kept before it is deleted, ms',
    parse: parse.int(1000, 2_592_000_000),
    default: 3_600_000,
  },
  trackingMaxUnseen: {
    flag: 'tracking-max-unseen',
    env: 'ROUTER_TRACKING_MAX_UNSEEN',
    description:
      'most tracked transfers awaiting their source tx (not abandoned); tracking a new tx beyond it answers 429',
    parse: parse.int(1, 100_000_000),
    default: 10_000,
  },
  opHookFunderKey: {
    flag: 'op-hook-funder-key',
    env: 'ROUTER_OP_HOOK_FUNDER_KEY',
    description:
      "a secret: 0x hex secp256k1 private key (ethsecp256k1 on minievm chains) whose funded account creates a hook signer's missing account on the hook chain by sending it 1 base unit of the fee denom; unset, /op-hook refuses a signer without an account",
    parse: parsePrivateKey,
    default: '',
    defaultText: 'none',
  },
  opHookFunderRate: {
    flag: 'op-hook-funder-rate',
    env: 'ROUTER_OP_HOOK_FUNDER_RATE',
    description:
      'most accounts the op-hook funder creates per minute, over all chains; /op-hook answers 429 beyond it',
    parse: parse.int(1, 100_000),
    default: 30,
  },
  dbDsn: storeSettings.dbDsn,
  // The embedded store of its own: an indexer may hold the default one open.
  dataDir: { ...storeSettings.dataDir, default: `${DEFAULT_DATA_DIR}-router` },
  ...logSettings,
};

export type RouterConfig = ReturnType<typeof loadRouterConfig>;

export function loadRouterConfig(source: ConfigSource) {
  return loadSettings(routerSettings, source);
}
