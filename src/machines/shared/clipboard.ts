// Copying a text to the clipboard as a region of a machine: its copy event (carrying `text`) runs the machine's
// `copyText` actor (provided by the wiring, src/services/app/clipboard.ts); a success shows a tag for a named
// delay, a refusal the browser gives goes back to idle.
import { notWired } from './not-wired';

/** The placeholder of a machine's `copyText` actor. */
export const copyTextNotWired = (owner: string) => notWired<unknown, { text: string }>(`${owner}.copyText`);

/**
 * The region's states. `event`: the copy event; `tag`: shown while 'copied', for the `delay`; `again`: what a copy
 * does while the one before is still being written ('restart' with its text, or 'ignore' it: the same text);
 * `onCopy`, `onFailed`: the machine's named actions run on each copy and on a refusal (e.g. to say why).
 */
export function copyStates<
  const E extends string,
  const Tag extends string,
  const D extends string,
  const A extends string = never,
>(p: { event: E; tag: Tag; delay: D; again: 'restart' | 'ignore'; onCopy?: A; onFailed?: A }) {
  const copy = { target: 'copying', actions: p.onCopy } as const;
  const on = (t: typeof copy | (typeof copy & { reenter: true })) => ({ [p.event]: t }) as Record<E, typeof t>;
  return {
    initial: 'idle',
    states: {
      idle: { on: on(copy) },
      copying: {
        invoke: {
          id: 'copyText',
          src: 'copyText',
          input: ({ event }: { event: { type: string; text?: string } }) => ({ text: event.text ?? '' }),
          onDone: 'copied',
          onError: { target: 'idle', actions: p.onFailed },
        },
        ...(p.again === 'restart' ? { on: on({ ...copy, reenter: true }) } : {}),
      },
      copied: {
        tags: [p.tag],
        after: { [p.delay]: 'idle' } as Record<D, 'idle'>,
        on: on(copy),
      },
    },
  } as const;
}
