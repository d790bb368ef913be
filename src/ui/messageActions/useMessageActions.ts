// The message actions of the open conversation as plain values and callbacks: the removal actor (session), the
// selection actor (alive with the pane), and which dialog is open (forward, info, the reaction picker).
import { useSelector } from '@xstate/react';
import { useCallback, useMemo, useState } from 'react';
import type { RemovalMode } from '../../machines/messageActions/removal/removal.protocol';
import { useLateSessionActor, useOwnedActor } from '../app/useOwnedActor';

/** What the actions need of a message row (the conversation's MessageRow fits). */
export interface ActionRow {
  id: string;
  own: boolean;
  text: string;
  type: string;
}

const NO_IDS: string[] = [];

export function useMessageActions(conversationId: string) {
  const removal = useLateSessionActor('removal');
  const selection = useOwnedActor('selection');
  const asking = useSelector(removal, (s) =>
    s?.hasTag('confirming') && s.context.asking?.conversationId === conversationId ? s.context.asking : null,
  );
  const held = useSelector(removal, (s) => (s?.hasTag('undoable') ? s.context.held : null));
  const removalError = useSelector(removal, (s) => s?.context.error ?? null);
  const ids = useSelector(selection, (s) => s?.context.ids ?? NO_IDS);
  const selecting = useSelector(selection, (s) => s?.hasTag('selecting') ?? false);
  const copied = useSelector(selection, (s) => s?.hasTag('copied') ?? false);
  const copyError = useSelector(selection, (s) => s?.context.error ?? null);
  const [forwarding, setForwarding] = useState<string[] | null>(null);
  const [infoFor, setInfoFor] = useState<string | null>(null);
  const [editsOf, setEditsOf] = useState<string | null>(null);
  const [reactingTo, setReactingTo] = useState<string | null>(null);
  const [reportingOn, setReportingOn] = useState<string | null>(null);
  const [remindingOf, setRemindingOf] = useState<ActionRow | null>(null);

  const remove = useCallback(
    (rows: ActionRow[]) => {
      const messageIds = rows.map((r) => r.id);
      if (messageIds.length === 0) return;
      // Own messages are asked about (for everyone or for me); anyone else's are hidden for oneself at once.
      if (rows.every((r) => r.own)) removal?.send({ type: 'removal.ask', conversationId, messageIds });
      else removal?.send({ type: 'removal.hide', conversationId, messageIds });
    },
    [removal, conversationId],
  );
  const copy = useCallback(
    (rows: ActionRow[]) => {
      const text = rows
        .map((r) => r.text)
        .filter(Boolean)
        .join('\n\n');
      if (text) selection.send({ type: 'selection.copy', text });
    },
    [selection],
  );

  const onAction = useCallback(
    (action: string, row: ActionRow) => {
      if (action === 'copy') copy([row]);
      else if (action === 'forward') setForwarding([row.id]);
      else if (action === 'select') selection.send({ type: 'selection.start', messageId: row.id });
      else if (action === 'info') setInfoFor(row.id);
      else if (action === 'report') setReportingOn(row.id);
      else if (action === 'remind') setRemindingOf(row);
      else if (action === 'delete' || action === 'hide') remove([row]);
    },
    [copy, remove, selection],
  );
  const selectedIds = useMemo(() => new Set(ids), [ids]);
  const pick = (rows: ActionRow[]) => {
    const order = new Map(rows.map((r, i) => [r.id, i]));
    return rows.filter((r) => selectedIds.has(r.id)).sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
  };
  const clear = () => selection.send({ type: 'selection.clear' });

  return {
    onAction,
    onMoreReactions: useCallback((row: ActionRow) => setReactingTo(row.id), []),
    removal: {
      /** «Удалить сообщение?» with the number of messages. */
      asking: asking ? { count: asking.messageIds.length } : null,
      /** The «Отменить» toast. */
      undo: held ? { count: held.messageIds.length, mode: held.mode } : null,
      error: removalError,
      choose: (mode: RemovalMode) => removal?.send({ type: 'removal.choose', mode }),
      cancel: () => removal?.send({ type: 'removal.cancel' }),
      undoIt: () => removal?.send({ type: 'removal.undo' }),
      dismissError: () => removal?.send({ type: 'removal.dismissError' }),
    },
    selection: {
      selecting,
      ids: selectedIds,
      count: ids.length,
      copied,
      copyError,
      toggle: useCallback((id: string) => selection.send({ type: 'selection.toggle', messageId: id }), [selection]),
      clear,
      forward: (rows: ActionRow[]) => {
        const chosen = pick(rows).filter((r) => r.type !== 'CALL' && r.type !== 'SYSTEM');
        if (chosen.length) setForwarding(chosen.map((r) => r.id));
        clear();
      },
      copy: (rows: ActionRow[]) => copy(pick(rows)),
      /** A piece of a message (a code block's text) to the clipboard, through the same actor and notice. */
      copyText: useCallback((text: string) => selection.send({ type: 'selection.copy', text }), [selection]),
      remove: (rows: ActionRow[]) => {
        remove(pick(rows));
        clear();
      },
    },
    forwarding,
    closeForward: useCallback(() => setForwarding(null), []),
    infoFor,
    closeInfo: useCallback(() => setInfoFor(null), []),
    /** «История изменений» of this message is open («изменено» on it). */
    editsOf,
    openEdits: useCallback((messageId: string) => setEditsOf(messageId), []),
    closeEdits: useCallback(() => setEditsOf(null), []),
    reactingTo,
    closeReacting: useCallback(() => setReactingTo(null), []),
    /** «Пожаловаться» on someone else's message: its dialog is open. */
    reportingOn,
    closeReport: useCallback(() => setReportingOn(null), []),
    /** «Напомнить» on a message: its dialog is open. */
    remindingOf,
    closeRemind: useCallback(() => setRemindingOf(null), []),
  };
}

export type MessageActionsView = ReturnType<typeof useMessageActions>;
