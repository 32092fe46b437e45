import { type Static, type TSchema, Type } from 'typebox';
import { Compile } from 'typebox/compile';
import { TrackedProgressInvalidError } from './errors.js';
import type { TransferProgress } from './types.js';

/**
 * The stored form of `TransferProgress` (the `progress` column): the same JSON with the version of its
 * format in `version`. Rows are validated when read; one that does not validate is a
 * `TrackedProgressInvalidError` naming the row and the first fields at fault, and stays in the table as
 * it is. Version 0 is the format before versions were stored (no `version` field, otherwise version 1):
 * migration 0004 brings stored rows to 1, and a row an older router writes during an upgrade still reads.
 */

export const PROGRESS_VERSION = 1;

const opt = <T extends TSchema>(schema: T) => Type.Optional(schema);

const ChainTx = Type.Object({
  chainId: Type.String(),
  txHash: Type.String(),
  height: Type.Number(),
  time: Type.String(),
});

const IbcHop = Type.Object({
  kind: Type.Literal('ibc'),
  fromChainId: Type.String(),
  toChainId: opt(Type.String()),
  srcPort: Type.String(),
  srcChannel: Type.String(),
  dstPort: Type.String(),
  dstChannel: Type.String(),
  sequence: Type.String(),
  denom: opt(Type.String()),
  amount: opt(Type.String()),
  timeoutHeight: opt(Type.String()),
  timeoutTimestamp: opt(Type.String()),
  send: ChainTx,
  receive: opt(ChainTx),
  written: opt(Type.Object({ tx: ChainTx, error: opt(Type.String()) })),
  acknowledge: opt(Type.Intersect([ChainTx, Type.Object({ error: opt(Type.String()) })])),
  timeout: opt(ChainTx),
  forwardedTo: opt(Type.Integer({ minimum: 0 })),
});

const OpinitHop = Type.Object({
  kind: Type.Literal('opinit'),
  direction: Type.Union([Type.Literal('deposit'), Type.Literal('withdrawal')]),
  fromChainId: Type.String(),
  toChainId: opt(Type.String()),
  bridgeId: opt(Type.String()),
  sequence: Type.String(),
  fromDenom: Type.String(),
  toDenom: Type.String(),
  amount: Type.String(),
  send: ChainTx,
  receive: opt(
    Type.Intersect([ChainTx, Type.Object({ success: Type.Boolean(), reason: opt(Type.String()) })]),
  ),
  refundSequence: opt(Type.String()),
  refund: opt(ChainTx),
});

const OmnichainHop = Type.Object({
  kind: Type.Literal('omnichain'),
  fromChainId: Type.String(),
  toChainId: opt(Type.String()),
  guid: Type.String(),
  srcEid: Type.Number(),
  dstEid: Type.Number(),
  sender: Type.String(),
  nonce: Type.String(),
  amount: opt(Type.String()),
  send: ChainTx,
  verify: opt(ChainTx),
  receive: opt(ChainTx),
  alert: opt(Type.Intersect([ChainTx, Type.Object({ reason: Type.String() })])),
});

const progressFields = {
  source: opt(
    Type.Intersect([
      ChainTx,
      Type.Object({
        code: Type.Number(),
        log: opt(Type.String()),
        denom: opt(Type.String()),
        amount: opt(Type.String()),
      }),
    ]),
  ),
  hops: Type.Array(Type.Union([IbcHop, OpinitHop, OmnichainHop])),
  abandoned: opt(Type.Object({ reason: Type.String() })),
  watch: Type.Record(Type.String(), Type.Number()),
  searched: opt(Type.Array(Type.String())),
};

/** Version 1: the progress with `version: 1`. */
export const StoredProgressV1 = Type.Object({ version: Type.Literal(1), ...progressFields });
/** Version 0: as stored before the format named its version. */
export const StoredProgressV0 = Type.Object(progressFields);

const V1 = Compile(StoredProgressV1);
const V0 = Compile(StoredProgressV0);
const HOPS: Record<string, ReturnType<typeof Compile>> = {
  ibc: Compile(IbcHop),
  opinit: Compile(OpinitHop),
  omnichain: Compile(OmnichainHop),
};

/**
 * Where a stored progress fails, in words: a hop against the schema of its own `kind` (the union's errors
 * would list every other kind's fields too), else the progress as a whole.
 */
function faultsOf(validator: ReturnType<typeof Compile>, raw: object): string[] {
  const hops: unknown[] = 'hops' in raw && Array.isArray(raw.hops) ? raw.hops : [];
  for (const [i, hop] of hops.entries()) {
    const kind = (hop as { kind?: unknown } | null)?.kind;
    const schema = typeof kind === 'string' ? HOPS[kind] : undefined;
    if (!schema) return [`/hops/${i}/kind must be one of ${Object.keys(HOPS).join(', ')}`];
    if (!schema.Check(hop))
      return [...schema.Errors(hop)].map((e) => `/hops/${i}${e.instancePath} ${e.message}`);
  }
  return [...validator.Errors(raw)].map((e) => `${e.instancePath || '/'} ${e.message}`);
}

/** The progress a version 1 row holds (`progress-codec.test.ts` checks it is `TransferProgress`). */
export type StoredProgress = Omit<Static<typeof StoredProgressV1>, 'version'>;

/** The row a stored progress belongs to, named by the error when it does not validate. */
export interface ProgressRow {
  id: string;
  chainId: string;
  txHash: string;
}

/** What the store writes: the progress with the version of its format. */
export function encodeProgress(progress: TransferProgress): string {
  return JSON.stringify({ version: PROGRESS_VERSION, ...progress });
}

/** A stored progress, validated against the schema of the version it names. */
export function decodeProgress(stored: unknown, row: ProgressRow): TransferProgress {
  const raw = typeof stored === 'string' ? parseJson(stored, row) : stored;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new TrackedProgressInvalidError(row, 'it is not a JSON object');
  const version = 'version' in raw ? raw.version : 0;
  const validator = version === 1 ? V1 : version === 0 ? V0 : undefined;
  if (!validator) {
    throw new TrackedProgressInvalidError(
      row,
      `its version ${JSON.stringify(version)} is not one this router reads (0 … ${PROGRESS_VERSION})`,
    );
  }
  if (!validator.Check(raw)) {
    const faults = faultsOf(validator, raw).slice(0, 3);
    throw new TrackedProgressInvalidError(row, `version ${version} does not validate: ${faults.join('; ')}`);
  }
  const { version: _, ...progress } = raw as Static<typeof StoredProgressV1>;
  return progress;
}

function parseJson(text: string, row: ProgressRow): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new TrackedProgressInvalidError(row, 'it is not JSON');
  }
}
