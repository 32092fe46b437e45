/**
 * A level-free wake-up: `wait()` resolves at the next `notify()` (or when `abort` fires), so a loop can
 * sleep until something it watches has changed.
 */
export interface ChangeSignal {
  wait(): Promise<void>;
  notify(): void;
}

export function createSignal(abort?: AbortSignal): ChangeSignal {
  let waiters: Array<() => void> = [];
  const notify = () => {
    const woken = waiters;
    waiters = [];
    for (const wake of woken) wake();
  };
  abort?.addEventListener('abort', notify, { once: true });
  return {
    wait: () => (abort?.aborted ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
    notify,
  };
}
