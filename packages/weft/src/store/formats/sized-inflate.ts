import { constants, InflateRaw, inflateRawSync } from 'node:zlib';

/**
 * Raw inflate, with a preset dictionary, of a stream whose output length is known, into a buffer of
 * that length (plus one spare byte: with the buffer exactly full, zlib could not tell the stream ended).
 *
 * `inflateRawSync` builds a whole zlib stream per call (a Transform, its native context with its 32 KB
 * window, the dictionary set): for a 2.3 KB record that is two fifths of its 7 µs. Here one context is
 * kept and reset between values: 4.1 µs a record (bench store, `npm run bench -- api`). Node has no
 * public call for that; it is the handle `inflateRawSync` itself drives (`_handle.writeSync` and the
 * `_writeState` it fills), so where a Node lacks them, and after any value that does not inflate, the
 * value is decoded by `inflateRawSync`, which also gives a bad value its error.
 */

interface ZlibHandle {
  writeSync(
    flush: number,
    input: Uint8Array,
    inOffset: number,
    inLength: number,
    output: Uint8Array,
    outOffset: number,
    outLength: number,
  ): void;
  reset(): void;
}

interface Context {
  engine: InflateRaw;
  handle: ZlibHandle;
  /** [output bytes left, input bytes left] after a write. */
  state: Uint32Array;
}

function openContext(dictionary: Buffer): Context | undefined {
  const engine = new InflateRaw({ dictionary });
  // A value that does not inflate destroys the stream, which then emits its error: it is the caller's
  // (through the one-shot decode), not the process's.
  engine.on('error', () => {});
  const inner = engine as unknown as { _handle?: Partial<ZlibHandle>; _writeState?: unknown };
  const handle = inner._handle;
  const state = inner._writeState;
  if (typeof handle?.writeSync !== 'function' || typeof handle.reset !== 'function') return undefined;
  if (!(state instanceof Uint32Array) || state.length < 2) return undefined;
  return { engine, handle: handle as ZlibHandle, state };
}

/**
 * A decoder of streams made with `dictionary`; `contexts` counts the zlib contexts it opened to keep.
 * A value that does not inflate gets the error `inflateRawSync` gives it.
 */
export interface SizedInflater {
  /** The text of `input`, said to be `length` bytes: in a buffer of that size, or all of it when longer. */
  (input: Buffer, length: number): Buffer;
  /**
   * Inflates `input` into `target` at `offset`, where `length` bytes and one more are free: the bytes
   * written, `length + 1` when the text is longer (the byte after the text is then overwritten).
   */
  into(input: Buffer, length: number, target: Buffer, offset: number): number;
  readonly contexts: number;
}

export function sizedInflater(dictionary: Buffer): SizedInflater {
  let context: Context | undefined | null = null;
  let contexts = 0;
  const oneShot = (input: Buffer, length: number) =>
    inflateRawSync(input, { dictionary, chunkSize: Math.max(64, length + 1) });
  const copied = (input: Buffer, length: number, target: Buffer, offset: number) =>
    oneShot(input, length).copy(target, offset, 0, length + 1);
  const into = (input: Buffer, length: number, target: Buffer, offset: number): number => {
    if (context === null) {
      context = openContext(dictionary);
      if (context) contexts += 1;
    }
    const room = length + 1;
    // zlib's handle ends the process on a write past its buffer (a failed assertion): checked here first.
    if (offset < 0 || offset + room > target.length)
      throw new RangeError(`${room} bytes at ${offset} do not fit in ${target.length}`);
    if (!context) return copied(input, length, target, offset);
    context.handle.writeSync(constants.Z_FINISH, input, 0, input.length, target, offset, room);
    if (context.engine.destroyed) {
      // Not a deflate stream, or cut short: the context is closed; the next value opens another.
      context = null;
      return copied(input, length, target, offset);
    }
    const written = room - context.state[0]!;
    context.handle.reset();
    return written;
  };
  const inflate = (input: Buffer, length: number) => {
    const out = Buffer.allocUnsafe(length + 1);
    const written = into(input, length, out, 0);
    return written > length ? oneShot(input, length) : out.subarray(0, written);
  };
  return Object.defineProperties(inflate, {
    into: { value: into },
    contexts: { get: () => contexts },
  }) as SizedInflater;
}
