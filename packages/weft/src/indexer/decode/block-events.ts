import { type DropReporter, ignoreDrops } from './drops.js';

/** An ABCI event as CometBFT v0.38 JSON carries it (`attributes` is left out when there are none). */
export interface CometEvent {
  type: string;
  attributes?: Array<{ key: string; value: string; index?: boolean }>;
}

/** An event of the block with the position of the tx that emitted it (null for block-level events). */
export interface BlockEvent {
  event: CometEvent;
  txIndex: number | null;
}

interface FinalizeEvents {
  pre: CometEvent[];
  begin: CometEvent[];
  end: CometEvent[];
}

/**
 * `finalize_block_events` split by their last attribute, as rollytics' scraper does: `mode` BeginBlock or
 * EndBlock, no `mode` at all means pre-block (upgrades); events without attributes, or with another
 * `mode`, are dropped (and reported).
 */
export function splitFinalizeEvents(
  events: CometEvent[] | null | undefined,
  drops: DropReporter = ignoreDrops,
): FinalizeEvents {
  const out: FinalizeEvents = { pre: [], begin: [], end: [] };
  for (const event of events ?? []) {
    const attributes = event.attributes;
    if (!attributes || attributes.length === 0) {
      drops.drop('block_events', 'no_attributes', { type: event.type });
      continue;
    }
    const last = attributes[attributes.length - 1]!;
    if (last.key !== 'mode') out.pre.push(event);
    else if (last.value === 'BeginBlock') out.begin.push(event);
    else if (last.value === 'EndBlock') out.end.push(event);
    else drops.drop('block_events', 'unknown_mode', { type: event.type, mode: last.value });
  }
  return out;
}

/** The `txs_results` of a `/block_results` answer (`null` on an empty block). */
export function txResultsOf(blockResults: Record<string, any>): Array<Record<string, any>> {
  return (blockResults.txs_results as Array<Record<string, any>> | null | undefined) ?? [];
}

/**
 * Every event of the block in rollytics' `ExtractEvents` order: pre-block, begin-block, each tx's
 * events, end-block. Only events of `types` are kept when given. Of a block's several passes, one
 * reports the dropped block events (`drops`), so each counts once.
 */
export function orderedBlockEvents(
  blockResults: Record<string, any>,
  types?: ReadonlySet<string>,
  drops?: DropReporter,
): BlockEvent[] {
  const { pre, begin, end } = splitFinalizeEvents(blockResults.finalize_block_events, drops);
  const out: BlockEvent[] = [];
  pushEvents(out, pre, null, types);
  pushEvents(out, begin, null, types);
  txResultsOf(blockResults).forEach((result, i) => {
    pushEvents(out, (result.events as CometEvent[] | null) ?? [], i, types);
  });
  pushEvents(out, end, null, types);
  return out;
}

function pushEvents(
  out: BlockEvent[],
  events: CometEvent[],
  txIndex: number | null,
  types: ReadonlySet<string> | undefined,
): void {
  for (const event of events) if (types === undefined || types.has(event.type)) out.push({ event, txIndex });
}
