import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import type { ChainNode } from '../node.js';
import { createPrng, type Prng, seedFrom } from './random.js';

/** Network trouble the node servers put on their answers, to exercise a client's retries. */
export interface FaultOptions {
  /** Share of requests answered with HTTP 503 (0..1). */
  errorRate: number;
  /** Share of requests held back `delayMs` before they are handled (0..1). */
  delayRate: number;
  delayMs: number;
  /** Share of requests whose socket is destroyed without an answer (0..1). */
  dropRate: number;
  /** Heights below this are answered as pruned, on top of what the chain itself has pruned. */
  pruneBelow?: number;
  seed: number | string;
}

export const NO_FAULTS: FaultOptions = { errorRate: 0, delayRate: 0, delayMs: 0, dropRate: 0, seed: 0 };

export type FaultFate = { delayMs: number; outcome: 'pass' | 'error' | 'drop' };

export interface Faults {
  readonly config: Readonly<FaultOptions>;
  /** Changes some settings; the random streams restart from the seed, so what follows is reproducible. */
  set(changes: Partial<FaultOptions>): void;
  /** Draws the fate of the next request on a named stream (one stream per server). */
  decide(stream: string): FaultFate;
  /** Lowest height the servers answer for: the chain's own, raised by `pruneBelow`. */
  earliestHeight(node: ChainNode): number;
}

function validate(config: FaultOptions): FaultOptions {
  for (const key of ['errorRate', 'delayRate', 'dropRate'] as const) {
    const rate = config[key];
    if (!(rate >= 0 && rate <= 1)) throw new Error(`faults: ${key} must be within [0, 1], got ${rate}`);
  }
  if (!(config.delayMs >= 0)) throw new Error(`faults: delayMs must be >= 0, got ${config.delayMs}`);
  if (config.pruneBelow !== undefined && !Number.isSafeInteger(config.pruneBelow)) {
    throw new Error(`faults: pruneBelow must be an integer, got ${config.pruneBelow}`);
  }
  return config;
}

export function createFaults(initial: Partial<FaultOptions> = {}): Faults {
  let config = validate({ ...NO_FAULTS, ...initial });
  let streams = new Map<string, Prng>();
  const stream = (name: string) => {
    let prng = streams.get(name);
    if (!prng) {
      prng = createPrng(seedFrom(config.seed, name));
      streams.set(name, prng);
    }
    return prng;
  };
  return {
    get config() {
      return config;
    },
    set(changes) {
      config = validate({ ...config, ...changes });
      streams = new Map();
    },
    decide(name) {
      const prng = stream(name);
      // Always three draws, so one setting does not shift the sequence of another.
      const drop = prng.next() < config.dropRate;
      const error = prng.next() < config.errorRate;
      const delay = prng.next() < config.delayRate;
      return {
        delayMs: delay ? config.delayMs : 0,
        outcome: drop ? 'drop' : error ? 'error' : 'pass',
      };
    },
    earliestHeight(node) {
      const chainEarliest = node.earliestHeight();
      if (config.pruneBelow === undefined || config.pruneBelow <= chainEarliest) return chainEarliest;
      return Math.min(config.pruneBelow, Math.max(1, node.latestHeight()));
    },
  };
}

/** Adds the fault hook to a server; every request draws from the server's own stream. */
export function installFaults(app: FastifyInstance, faults: Faults, stream: string): void {
  app.addHook('onRequest', async (request, reply) => {
    const config = faults.config;
    if (config.errorRate === 0 && config.dropRate === 0 && config.delayRate === 0) return;
    const fate = faults.decide(stream);
    if (fate.delayMs > 0) await sleep(fate.delayMs);
    if (fate.outcome === 'drop') {
      reply.hijack();
      request.raw.socket.destroy();
      return reply;
    }
    if (fate.outcome === 'error') {
      return reply.code(503).type('text/plain; charset=utf-8').send('service unavailable (injected fault)');
    }
  });
}
