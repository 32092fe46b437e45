/**
 * ABCI events as CometBFT RPC and Cosmos REST render them (`abci.Event`: a type and key/value
 * attributes), read into records: the one reading the indexer, the router's tracker and the devnet's
 * relayers share. A key given twice keeps its last value, as a map of the attributes does.
 */

export interface AbciEvent {
  type: string;
  attributes?: ReadonlyArray<{ key: string; value?: string | null }>;
}

export type Attributes = Record<string, string>;

/**
 * An event's attributes by key (a missing value reads as ''). The record has no prototype: a contract's
 * event may use any key (`constructor`, `__proto__`), and `key in attributes` means the event has it.
 */
export function attributesOf(event: AbciEvent): Attributes {
  const out: Attributes = Object.create(null);
  for (const a of event.attributes ?? []) out[a.key] = a.value ?? '';
  return out;
}
