// The quick switcher's view hook: its actor while the dialog is shown, what it shows and the events it sends.
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import {
  type QuickSwitcherContext,
  quickSwitcherView,
  type SwitcherChat,
} from '../../machines/chats/quickSwitcher/quickSwitcher.protocol';
import { useOwnedActor } from '../app/useOwnedActor';

const none: QuickSwitcherContext = { chats: [], query: '', index: 0, chosen: null };

export function useQuickSwitcher(chats: SwitcherChat[], onDone: (chosen: string | null) => void) {
  const actor = useOwnedActor('quickSwitcher', { chats });
  const context = useSelector(actor, (s) => s?.context ?? none);
  const done = useSelector(actor, (s) => s?.status === 'done');
  useEffect(() => {
    if (done) onDone(context.chosen);
  }, [done, context.chosen, onDone]);
  return {
    ...quickSwitcherView(context),
    onQuery: (query: string) => actor.send({ type: 'switcher.query', query }),
    onNext: () => actor.send({ type: 'switcher.next' }),
    onPrevious: () => actor.send({ type: 'switcher.previous' }),
    onChoose: (index?: number) => actor.send({ type: 'switcher.choose', index }),
    onClose: () => actor.send({ type: 'switcher.close' }),
  };
}
