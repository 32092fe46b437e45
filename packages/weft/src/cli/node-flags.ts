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
 * `npm start`'s flags (the dev stack, `weft dev`, on a developer's machine). The default 16 MB young
 * generation: the stack sits idle most of the time, where 64 MB semi-spaces only hold memory (idle, the
 * six chains, five stores and the services took 1,113 MB of RSS with them and 888 MB without, for the
 * same CPU). And four times V8's interrupt budget: a function is optimized after four times as much
 * work. The stack's code runs a little every block, so for minutes after the start functions kept
 * crossing the default threshold, and compiling them was a quarter of the idle stack's CPU (0.09 of
 * 0.33 cores on the compiler threads 15 s after the table, 0.04 with this budget; the main thread
 * pays about 0.01 for the less optimized code).
 * And a hundred times V8's budget for tiering WebAssembly up: the stores' PostgreSQL (PGlite) is one
 * WebAssembly module, and at the start every store runs much of it (opening, recovery, the first
 * writes), so V8's threads spent about 4 s of CPU compiling it with TurboFan before the table. With
 * this budget a function is optimized after a hundred times as much work: the start runs PostgreSQL in
 * the baseline code, and what stays hot (the stores' writes and reads) is optimized in the following
 * minutes. Warm starts on one machine: 7.3 and 8.8 s to the table with 11.4 and 13.4 s of CPU before
 * (two runs), 6.6 s with 9.6 after; idle 0.195–0.206 cores before, 0.189 after (WebAssembly never
 * optimized, `--liftoff-only`: 6.3–6.9 s, 8.8–9.7 s of CPU, idle 0.21–0.22).
 */
export const DEV_NODE_FLAGS = [
  '--max-semi-space-size=16',
  '--interrupt-budget=270336',
  '--wasm-tiering-budget=180000000',
] as const;
