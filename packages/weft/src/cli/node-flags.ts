/**
 * The V8 flags weft's processes start with (`bin/weft.js`'s first line, the npm scripts). A block's
 * node documents are hundreds of kilobytes of short-lived JSON: with the default 16 MB young
 * generation much of it survives a scavenge while a height is in flight and is promoted, and
 * old-generation collections then took a sixth of the indexer's and the devnet's time. 64 MB
 * semi-spaces keep it young (measured with `npm run bench -- ingest`: about a fifth more blocks/s,
 * for some 80 MB more resident memory).
 */
export const NODE_FLAGS = ['--max-semi-space-size=64'] as const;

/**
 * `npm start`'s flags (the dev stack, `weft dev`, on a developer's machine): the default 16 MB young
 * generation. The stack sits idle most of the time, where 64 MB semi-spaces only hold memory: idle, the
 * six chains, five stores and the services took 1,113 MB of RSS with them and 888 MB without, for the
 * same CPU within the measurement's noise (0.46 and 0.50 cores, one run each on a loaded machine).
 */
export const DEV_NODE_FLAGS = ['--max-semi-space-size=16'] as const;
