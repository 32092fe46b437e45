import type { IndexedInternalTx } from '../../store/records.js';
import { accAddressFromString, hexToBytesPadded } from './account-address.js';
import { type DropReporter, ignoreDrops } from './drops.js';
import { DecodeError } from './errors.js';

/** A geth `callTracer` frame as `debug_traceBlockByNumber` returns it. */
export interface CallFrame {
  type?: string;
  from?: string;
  to?: string;
  value?: string;
  gas?: string;
  gasUsed?: string;
  input?: string;
  output?: string;
  calls?: CallFrame[];
}

export interface TraceEntry {
  txHash: string;
  result?: CallFrame;
  error?: string;
}

// Trace addresses are 0x hex, so any bech32 prefix reads them the same way.
const HEX_ONLY_PREFIX = 'init';

function frameRecord(
  txHash: Uint8Array,
  frame: CallFrame,
  index: number,
  parentIndex: number,
  output: string,
) {
  const from = accAddressFromString(frame.from ?? '', HEX_ONLY_PREFIX);
  if (!from) throw new Error(`invalid frame from address ${JSON.stringify(frame.from)}`);
  const to = frame.to ? accAddressFromString(frame.to, HEX_ONLY_PREFIX) : null;
  return {
    txHash,
    index,
    parentIndex,
    type: frame.type ?? '',
    from: from.bytes,
    to: to ? to.bytes : null,
    input: hexToBytesPadded(frame.input ?? ''),
    output: hexToBytesPadded(output),
    value: hexToBytesPadded(frame.value ?? ''),
    gas: hexToBytesPadded(frame.gas ?? ''),
    gasUsed: hexToBytesPadded(frame.gasUsed ?? ''),
  } satisfies IndexedInternalTx;
}

/** Pre-order walk: a child's index is its parent's plus the sizes of the subtrees before it, plus one. */
function flatten(
  txHash: Uint8Array,
  frame: CallFrame,
  index: number,
  parentIndex: number,
  out: IndexedInternalTx[],
) {
  // rollytics drops the top-level frame's output (it lives in the receipt's tx).
  out.push(frameRecord(txHash, frame, index, parentIndex, parentIndex === -1 ? '' : (frame.output ?? '')));
  let next = index + 1;
  for (const child of frame.calls ?? []) {
    const before = out.length;
    flatten(txHash, child, next, index, out);
    next += out.length - before;
  }
}

/**
 * The call frames of a block's traces numbered as rollytics numbers them: the top call is index 0 with
 * parent -1, children follow in pre-order. Traces that failed (`error`) are skipped, as are (reported)
 * entries with neither a result nor an error; hex values with an odd number of digits are read with a
 * leading zero.
 */
export function flattenTraces(
  height: number,
  traces: TraceEntry[],
  drops: DropReporter = ignoreDrops,
): IndexedInternalTx[] {
  const out: IndexedInternalTx[] = [];
  for (const trace of traces) {
    if (trace.error) continue;
    if (!trace.result) {
      drops.drop('internal_tx', 'missing_result', { height, txHash: trace.txHash });
      continue;
    }
    try {
      flatten(hexToBytesPadded(trace.txHash), trace.result, 0, -1, out);
    } catch (err) {
      throw new DecodeError(height, `trace of ${trace.txHash}: ${(err as Error).message}`, { cause: err });
    }
  }
  return out;
}
