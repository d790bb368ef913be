// Placeholder implementations for the effectful actors a machine declares in `setup({ actors })`. The
// composition root (each feature's wiring.ts, composed by src/machines/app/wiring.ts) provides the real ones; graph tests provide stubs. Anything that runs
// a placeholder was wired wrongly, so it fails loudly instead of doing nothing.
import { fromCallback, fromPromise } from 'xstate';

export function notWired<TOutput = never, TInput = unknown>(name: string) {
  return fromPromise<TOutput, TInput>(async () => {
    throw new Error(`actor "${name}" is not wired (see the registry line's wire in src/machines/app/registry.ts)`);
  });
}

export function notWiredCallback<TEvent extends { type: string } = { type: string }, TInput = unknown>(name: string) {
  return fromCallback<TEvent, TInput>(() => {
    throw new Error(`actor "${name}" is not wired (see the registry line's wire in src/machines/app/registry.ts)`);
  });
}
