/** A relayer the control surface can drive: pause and resume it, change its delay. */
export interface ControlledRelayer {
  /** Unique within the network (e.g. `ibc`, `opinit-executor`, `oft-verifier`). */
  readonly name: string;
  /** What it relays, for `weft_relayers` (e.g. `weft-l1-1 <-> weft-move-1`). */
  readonly description?: string;
  pause(): void;
  resume(): void;
  setDelay(ms: number): void;
  status(): { paused: boolean; delayMs: number };
}

/** A further `weft_*` method a part adds to the control surface; throw ControlError for a bad request. */
export type ControlMethod = (params: unknown[]) => unknown | Promise<unknown>;
