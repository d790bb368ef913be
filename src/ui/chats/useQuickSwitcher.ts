// The quick switcher's view hook: its actor while the dialog is shown, what it shows and the events it sends.
import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import {
  type QuickSwitcherContext,
  quickSwitcherView,
  type SwitcherChat,
} from '../../machines/chats/quickSwitcher/quickSwitcher.protocol';
import { useOwnedActor } from '../app/useOwnedActor';

const none: QuickSwitcherContext = { chats: [], query: '', index: 0, chosen: null };

export function useQuickSwitcher(chats: SwitcherChat[], onDone: (chosen: string | null) => void) {
  const actor = useOwnedActor('quickSwitcher', { chats });
  const running = useSelector(actor, (s) => s !== undefined);
  // Until the actor runs (its code on its way), what is typed shows from here: each keystroke's whole text is kept for
  // the actor and reaches it in order, and the field must not fall back to the empty query between them.
  const [typed, setTyped] = useState('');
  const context = useSelector(actor, (s) => s?.context ?? none);
  const done = useSelector(actor, (s) => s?.status === 'done');
  useEffect(() => {
    if (done) onDone(context.chosen);
  }, [done, context.chosen, onDone]);
  return {
    ...quickSwitcherView(running ? context : { ...context, query: typed }),
    onQuery: (query: string) => {
      setTyped(query);
      actor.send({ type: 'switcher.query', query });
    },
    onNext: () => actor.send({ type: 'switcher.next' }),
    onPrevious: () => actor.send({ type: 'switcher.previous' }),
    onChoose: (index?: number) => actor.send({ type: 'switcher.choose', index }),
    onClose: () => actor.send({ type: 'switcher.close' }),
  };
}
