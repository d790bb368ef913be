// Placeholder implementations for the effectful actors a machine declares in `setup({ actors })`. Its feature's
// effects (src/services/<feature>/*.effects.ts, provided by src/machines/app/wiring.ts) give the real ones; graph tests
// provide stubs. Anything that runs a placeholder was wired wrongly, so it fails loudly instead of doing nothing.
import { fromCallback, fromPromise } from 'xstate';

export function notWired<TOutput = never, TInput = unknown>(name: string) {
  return fromPromise<TOutput, TInput>(async () => {
    throw new Error(
      `actor "${name}" is not wired (see the registry line's effects in src/services/<feature>/effects.ts)`,
    );
  });
}

export function notWiredCallback<TEvent extends { type: string } = { type: string }, TInput = unknown>(name: string) {
  return fromCallback<TEvent, TInput>(() => {
    throw new Error(
      `actor "${name}" is not wired (see the registry line's effects in src/services/<feature>/effects.ts)`,
    );
  });
}
