import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { logSettings, parse, type SettingsOf, type SettingsSpec } from 'weft/common/config.js';
import { ConfigError } from 'weft/common/errors.js';
import type { Logger } from 'weft/common/logger.js';
import { clearLiveLine, formatProgress, liveLine } from 'weft/common/progress.js';
import type { Devnet, NetworkChain } from './devnet.js';
import { NETWORKS, type NetworkKind } from './network/plan.js';
import type { VmType } from './types.js';

const VMS = ['evm', 'move', 'wasm'] as const;

/** Settings of `weft devnet`, from flags or environment variables. */
export const devnetSettings = {
  config: {
    flag: 'config',
    env: 'DEVNET_CONFIG',
    description:
      'JSON file with any of these settings (keys as the flags, camelCase or kebab-case); flags win (empty: none)',
    parse: parse.string,
    default: '',
  },
  vms: {
    flag: 'vms',
    env: 'DEVNET_VMS',
    description: 'rollups to run, comma-separated: evm, move, wasm',
    parse: parse.listOf(parse.oneOf(VMS)),
    default: ['evm', 'move', 'wasm'] as VmType[],
  },
  network: {
    flag: 'network',
    env: 'DEVNET_NETWORK',
    description:
      'chains to run: rollups (the --vms rollups alone) or full (with the L1 initia, an external Cosmos chain and an external EVM chain)',
    parse: parse.oneOf(NETWORKS),
    default: 'rollups' as NetworkKind,
  },
  opOutputInterval: {
    flag: 'op-output-interval',
    env: 'DEVNET_OP_OUTPUT_INTERVAL',
    description: 'full network: time between OPinit output proposals of each rollup on the L1 (e.g. 5s)',
    parse: parse.duration,
    default: 5000,
  },
  opFinalizationPeriod: {
    flag: 'op-finalization-period',
    env: 'DEVNET_OP_FINALIZATION_PERIOD',
    description: 'full network: time after an output before its withdrawals can be claimed on the L1',
    parse: parse.duration,
    default: 10_000,
  },
  seed: {
    flag: 'seed',
    env: 'DEVNET_SEED',
    description: 'seed of keys, accounts and traffic; equal seeds give equal chains',
    parse: parse.string,
    default: 'weft',
  },
  blockTime: {
    flag: 'block-time',
    env: 'DEVNET_BLOCK_TIME',
    description: 'time between blocks (e.g. 500ms, 1s)',
    parse: parse.duration,
    default: 1000,
  },
  stateDir: {
    flag: 'state-dir',
    env: 'DEVNET_STATE_DIR',
    description: 'folder that keeps the chains across restarts (empty: in memory)',
    parse: parse.string,
    default: '',
  },
  host: {
    flag: 'host',
    env: 'DEVNET_HOST',
    description: 'address the node surfaces listen on',
    parse: parse.string,
    default: '127.0.0.1',
  },
  portBase: {
    flag: 'port-base',
    env: 'DEVNET_PORT_BASE',
    description:
      'chain i listens on base+10i (RPC), +1 (REST), +2 (JSON-RPC); the control surface on base+9; 0 picks free ports',
    parse: parse.int(0, 65_000),
    default: 26_650,
  },
  accounts: {
    flag: 'accounts',
    env: 'DEVNET_ACCOUNTS',
    description: 'funded test accounts per chain',
    parse: parse.int(1, 1000),
    default: 10,
  },
  txsPerBlock: {
    flag: 'txs-per-block',
    env: 'DEVNET_TXS_PER_BLOCK',
    description: 'generated txs per block (0 turns the traffic generator off)',
    parse: parse.int(0, 1000),
    default: 10,
  },
  fastForward: {
    flag: 'fast-forward',
    env: 'DEVNET_FAST_FORWARD',
    description: 'produce this many blocks as fast as possible at start, then report blocks/s and txs/s',
    parse: parse.int(0),
    default: 0,
  },
  exitAfterFastForward: {
    flag: 'exit',
    description: 'exit after the fast-forward instead of serving',
    parse: parse.bool,
    boolean: true,
    default: false,
  },
  haltHeight: {
    flag: 'halt-height',
    env: 'DEVNET_HALT_HEIGHT',
    description: 'stop producing blocks at this height; the node surfaces keep serving (0: never)',
    parse: parse.int(0),
    default: 0,
  },
  manifest: {
    flag: 'manifest',
    env: 'DEVNET_MANIFEST',
    description:
      'write the chains, their URLs and funded accounts to this JSON file when ready (empty: none)',
    parse: parse.string,
    default: '',
  },
  registry: {
    flag: 'registry',
    env: 'DEVNET_REGISTRY',
    description:
      'write an initia-registry style folder of the chains here (empty: <manifest folder>/registry when --manifest is set)',
    parse: parse.string,
    default: '',
  },
  faultErrorRate: {
    flag: 'fault-error-rate',
    description: 'fraction of requests answered with a 5xx',
    parse: parse.number(0, 1),
    default: 0,
  },
  faultDelayRate: {
    flag: 'fault-delay-rate',
    description: 'fraction of requests delayed by --fault-delay',
    parse: parse.number(0, 1),
    default: 0,
  },
  faultDelay: {
    flag: 'fault-delay',
    description: 'delay of a delayed request',
    parse: parse.duration,
    default: 2000,
  },
  faultDropRate: {
    flag: 'fault-drop-rate',
    description: 'fraction of requests whose connection is dropped without an answer',
    parse: parse.number(0, 1),
    default: 0,
  },
  pruneBelow: {
    flag: 'prune-below',
    description: 'heights below this are pruned (not served)',
    parse: parse.int(0),
    default: 0,
  },
  ...logSettings,
} satisfies SettingsSpec;

/** The setting that places the devnet's ports, named when one is taken. */
export const PORT_BASE = '--port-base / DEVNET_PORT_BASE';

/** Reads `--config` into flag-style argv entries placed before the real flags (which then win). */
export function configFileArgs(argv: readonly string[], env: Record<string, string | undefined>): string[] {
  const i = argv.findIndex((a) => a === '--config' || a.startsWith('--config='));
  const path = i === -1 ? env.DEVNET_CONFIG : argv[i]!.includes('=') ? argv[i]!.split('=')[1] : argv[i + 1];
  if (!path) return [];
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch (err) {
    throw new ConfigError('--config', `cannot read ${path}: ${(err as Error).message}`);
  }
  return Object.entries(json).flatMap(([key, value]) => {
    if (key === 'config') return [];
    const flag = key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    return [`--${flag}`, Array.isArray(value) ? value.join(',') : String(value)];
  });
}

/** The settings `weft devnet` and `weft dev` both start a devnet from. */
type StartSettings = Pick<
  SettingsOf<typeof devnetSettings>,
  | 'seed'
  | 'vms'
  | 'network'
  | 'opOutputInterval'
  | 'opFinalizationPeriod'
  | 'registry'
  | 'blockTime'
  | 'accounts'
  | 'txsPerBlock'
  | 'stateDir'
  | 'host'
  | 'portBase'
  | 'haltHeight'
  | 'fastForward'
  | 'manifest'
>;

/** `startDevnet`'s options from the settings both commands share (each adds its own). */
export function devnetOptions(settings: StartSettings) {
  return {
    seed: settings.seed,
    vms: settings.vms,
    network: settings.network,
    settings: {
      opinit: {
        outputIntervalMs: settings.opOutputInterval,
        finalizationPeriodMs: settings.opFinalizationPeriod,
      },
    },
    registryDir: registryDir(settings),
    blockTimeMs: settings.blockTime,
    accounts: settings.accounts,
    txsPerBlock: settings.txsPerBlock,
    stateDir: settings.stateDir || undefined,
    host: settings.host,
    portBase: settings.portBase,
    haltHeight: settings.haltHeight || undefined,
  };
}

/** The registry folder: `--registry`, or beside the manifest. */
function registryDir(settings: Pick<StartSettings, 'registry' | 'manifest'>): string | undefined {
  if (settings.registry) return settings.registry;
  return settings.manifest ? join(dirname(settings.manifest), 'registry') : undefined;
}

/** Fast-forwards (printing the report) and writes the manifest, as the settings ask. */
export async function prepareDevnet(devnet: Devnet, settings: StartSettings, logger: Logger): Promise<void> {
  if (settings.fastForward > 0) {
    const report = await devnet.fastForward(settings.fastForward, fastForwardLine(settings.fastForward));
    clearLiveLine();
    process.stdout.write(`${JSON.stringify({ fast_forward: report })}\n`);
  }
  if (settings.manifest) {
    devnet.writeManifest(settings.manifest);
    logger.info({ path: settings.manifest }, 'manifest written');
  }
}

/**
 * On a terminal, the fast-forward's live line: `fast-forward  block 120/1000 (12.0%)  300 blocks/s
 * 2900 txs/s  ETA 3s`, redrawn at most ten times a second; off one, nothing (the report follows).
 */
function fastForwardLine(rounds: number) {
  const line = liveLine();
  if (!line) return undefined;
  const started = performance.now();
  let drawn = 0;
  return ({ round, blocks, txs }: { round: number; blocks: number; txs: number }) => {
    const now = performance.now();
    if (now - drawn < 100 && round < rounds) return;
    drawn = now;
    const seconds = Math.max(0.001, (now - started) / 1000);
    line.draw(
      formatProgress({
        label: 'fast-forward',
        unit: 'block',
        done: round,
        target: rounds,
        rates: { 'blocks/s': blocks / seconds, 'txs/s': txs / seconds },
        etaSeconds: round >= rounds ? 0 : ((rounds - round) * seconds) / round,
        doneText: 'done',
      }),
    );
  };
}

/** The line printed for a chain once it serves: id, VM, height and node URLs (then `extra`). */
export function chainLine(network: NetworkChain, extra = ''): string {
  const { chain, role } = network;
  const urls: { rpc?: string; rest?: string; jsonRpc?: string } = network.urls;
  // devnet.ts's vmOf, not imported: help reads these settings without loading the devnet.
  const vm = 'vm' in network ? network.vm : '-';
  const shown = [
    urls.rpc ? ` rpc=${urls.rpc}` : '',
    urls.rest ? ` rest=${urls.rest}` : '',
    urls.jsonRpc ? ` json-rpc=${urls.jsonRpc}` : '',
  ].join('');
  const roleText = role === 'rollup' ? '' : ` role=${role}`;
  return `${chain.info.chainId.padEnd(14)} vm=${vm.padEnd(4)}${roleText} height=${chain.latestHeight()}${shown}${extra}\n`;
}

/** The line printed for the network once it serves: the control surface and the registry folder. */
export function networkLine(devnet: Devnet): string {
  const registry = devnet.manifest().registry;
  return `control=${devnet.control.url}${registry ? ` registry=${registry}` : ''}\n`;
}
