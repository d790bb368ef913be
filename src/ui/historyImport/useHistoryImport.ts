// «Импорт истории»: its actor (alive while the dialog is open) as plain values and callbacks. The step shown is the
// one the machine's tags name.
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import {
  type HistoryImportInput,
  IMPORT_TAGS,
  importAuthors,
  progressLine,
} from '../../machines/historyImport/historyImport/historyImport.protocol';
import { useOwnedActor } from '../app/useOwnedActor';
import { useOpenConversation } from '../shared/useChatList';

const STEPS = [
  IMPORT_TAGS.resuming,
  IMPORT_TAGS.choose,
  IMPORT_TAGS.upload,
  IMPORT_TAGS.analyse,
  IMPORT_TAGS.chooseChat,
  IMPORT_TAGS.map,
  IMPORT_TAGS.run,
  IMPORT_TAGS.done,
  IMPORT_TAGS.failed,
  IMPORT_TAGS.cancelled,
] as const;
export type ImportStep = (typeof STEPS)[number];

export function useHistoryImport(input: HistoryImportInput) {
  const actor = useOwnedActor('historyImport', input);
  const step = useSelector(actor, (s) => STEPS.find((t) => s?.hasTag(t)) ?? IMPORT_TAGS.resuming);
  const c = useSelector(actor, (s) => s?.context);
  const open = useOpenConversation();
  // The imported history sits before what the open chat has loaded: it loads its page again.
  useEffect(() => {
    const sub = actor.on('historyImport.finished', (e) => {
      if (open && e.conversationId && open.getSnapshot().context.conversationId === e.conversationId)
        open.send({ type: 'conversation.refresh' });
    });
    return () => sub.unsubscribe();
  }, [actor, open]);
  return {
    step: step as ImportStep,
    secret: input.secret,
    intoNewGroup: input.conversationId === null,
    candidates: input.candidates,
    busy: useSelector(actor, (s) => s?.hasTag(IMPORT_TAGS.busy) ?? false),
    cancellable: useSelector(actor, (s) => s?.hasTag(IMPORT_TAGS.cancellable) ?? false),
    uploadPercent: c?.uploadPercent ?? 0,
    source: c?.source ?? null,
    chats: c?.chats ?? [],
    authors: c ? importAuthors(c) : [],
    mapping: c?.mapping ?? {},
    title: c?.title ?? '',
    done: c?.done ?? 0,
    total: c?.total ?? 0,
    progress: progressLine(c?.done ?? 0, c?.total ?? 0),
    conversationId: c?.job?.conversationId ?? input.conversationId,
    error: c?.error ?? null,
    onFile: (file: File) => actor.send({ type: 'import.file', file }),
    onChat: (chatId: string) => actor.send({ type: 'import.chat', chatId }),
    onMap: (authorKey: string, userId: string | null) => actor.send({ type: 'import.map', authorKey, userId }),
    onTitle: (title: string) => actor.send({ type: 'import.title', title }),
    onStart: () => actor.send({ type: 'import.start' }),
    onCancel: () => actor.send({ type: 'import.cancel' }),
    onAgain: () => actor.send({ type: 'import.again' }),
  };
}
export type HistoryImportView = ReturnType<typeof useHistoryImport>;
