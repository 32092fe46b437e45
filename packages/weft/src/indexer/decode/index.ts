/** The decode stage: node JSON of one height (a `BlockBundle`) to the records the store writes. Pure, no I/O. */
export { type DecodeOptions, decodeBlock, metaRequests, type VmType } from './block.js';
export { type DropReporter, ignoreDrops } from './drops.js';
export { DecodeError, MissingMetaError } from './errors.js';
export { type CallFrame, flattenTraces, type TraceEntry } from './internal-txs.js';
export { metaKeys } from './meta.js';
export { erc20TransferDeltas } from './rich-list.js';
