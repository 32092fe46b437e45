import { event } from '../events.js';
import type { AbciEvent } from '../types.js';

/** A JSON value as movevm renders Move values: u64 and wider as strings, addresses as `0x` short hex. */
export type MoveJson = string | boolean | number | null | MoveJson[] | { [field: string]: MoveJson };

/** One emitted Move event: its struct tag and its fields in declaration order. */
export interface MoveEvent {
  typeTag: string;
  data: Record<string, MoveJson>;
}

// Go's `fmt.Sprintf("%v", v)` and `strconv` forms, as initia's `stringifyJSONValue` prints scalars.
function stringifyScalar(value: MoveJson): string {
  if (value === null) return '<nil>';
  if (typeof value === 'string') return value;
  return String(value);
}

/**
 * initia `x/move` `EmitContractEvents`: a `move` event with `type_tag`, `data` (the JSON string movevm
 * produced, fields in declaration order) and every top-level scalar field as its own attribute, sorted by key.
 */
export function moveCosmosEvent(e: MoveEvent): AbciEvent {
  const attributes: Record<string, string> = { type_tag: e.typeTag, data: JSON.stringify(e.data) };
  const scalars = Object.keys(e.data)
    .filter((k) => {
      const v = e.data[k]!;
      return v === null || typeof v !== 'object';
    })
    .sort();
  const out = event('move', attributes);
  for (const key of scalars) out.attributes.push({ key, value: stringifyScalar(e.data[key]!), index: true });
  return out;
}

/** The `execute` event initia's keeper emits after a successful entry-function call. */
export function executeEvent(call: {
  sender: string;
  moduleAddr: string;
  moduleName: string;
  functionName: string;
}): AbciEvent {
  return event('execute', {
    sender: call.sender,
    module_addr: call.moduleAddr,
    module_name: call.moduleName,
    function_name: call.functionName,
  });
}
