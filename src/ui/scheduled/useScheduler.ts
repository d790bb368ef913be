// The scheduler actor of the open chat as plain values and callbacks (docs/behaviour.md §10.32): its waiting items,
// the step shown (the times, confirming) and what the buttons do. The actor lives while the dialog is open.
import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import type { ScheduleDraft } from '../../machines/scheduled/index';
import { useOwnedActor } from '../app/useOwnedActor';

const NONE: never[] = [];

export function useScheduler(conversationId: string, start: ScheduleDraft | null, onSaved: () => void) {
  const actor = useOwnedActor('scheduler', { conversationId });
  const loading = useSelector(actor, (s) => s?.hasTag('loading') ?? true);
  const busy = useSelector(actor, (s) => s?.hasTag('busy') ?? false);
  const choosing = useSelector(actor, (s) => s?.hasTag('choosing') ?? false);
  const confirming = useSelector(actor, (s) => s?.hasTag('confirming') ?? false);
  const items = useSelector(actor, (s) => s?.context.items ?? NONE);
  const draft = useSelector(actor, (s) => s?.context.draft ?? null);
  const at = useSelector(actor, (s) => s?.context.at ?? null);
  const error = useSelector(actor, (s) => s?.context.error ?? null);
  // The draft the dialog was opened with goes in once the list has loaded.
  const started = useRef(false);
  useEffect(() => {
    if (loading || started.current || !start) return;
    started.current = true;
    actor.send({ type: 'schedule.start', draft: start });
  }, [actor, loading, start]);
  const saved = useRef(onSaved);
  saved.current = onSaved;
  useEffect(() => {
    const sub = actor.on('scheduler.saved', () => saved.current());
    return () => sub.unsubscribe();
  }, [actor]);
  return {
    loading,
    busy,
    choosing,
    confirming,
    items,
    draft,
    at,
    error,
    pick: (iso: string) => actor.send({ type: 'schedule.pick', at: iso }),
    confirm: () => actor.send({ type: 'schedule.confirm' }),
    back: () => actor.send({ type: 'schedule.back' }),
    cancel: () => actor.send({ type: 'schedule.cancel' }),
    retry: () => actor.send({ type: 'scheduled.retry' }),
    edit: (id: string) => {
      const item = items.find((i) => i.id === id);
      if (item)
        actor.send({
          type: 'schedule.start',
          draft: { kind: 'edit', id, content: item.content, reminder: item.kind === 'reminder' },
        });
    },
    text: (content: string) => actor.send({ type: 'schedule.text', content }),
    sendNow: (id: string) => actor.send({ type: 'scheduled.sendNow', id }),
    remove: (id: string) => actor.send({ type: 'scheduled.delete', id }),
  };
}

export type SchedulerView = ReturnType<typeof useScheduler>;
