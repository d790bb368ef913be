// Where the announcer's events come from (its protocol's AnnouncerEvent), as actor logic it invokes: the chat on
// screen (the chats actor's selection), messages, typing and incoming calls as the server tells them (any chat: the
// announcer decides what is said), and uploads as the composer's outbox moves its file sends from uploading on.
// Names come from the chat list, as the timeline shows them.
import { type EventObject, fromCallback, type Subscription } from 'xstate';
import { clock, displayName } from '../../../contract/format';
import type { Message } from '../../../contract/entities';
import { messagePreview, NOTIFICATION_TEXT } from '../../../contract/notification';
import { chatList, onChats } from '../../chats/chats/chats.protocol';
import { outboxOf } from '../../composer/composer/composer.protocol';
import type { OutboxItem } from '../../composer/index';
import type { OutboxRef } from '../../composer/outbox/outbox.protocol';
import { systemActor } from '../../shared/system';
import type { AnnouncerEvent, UploadPhase } from './announcer.protocol';

/** How much of a message's text is said. */
const PREVIEW_CHARS = 100;
const SOMEONE = 'Собеседник';

/** The short text said for a message: its words, «Фото», «Файл: отчёт.pdf», «Голосовое сообщение, 0:07». */
export function heardPreview(m: Message): string {
  const file = m.attachments.find((a) => a.type === 'FILE');
  if (m.type === 'VOICE') return `Голосовое сообщение, ${clock(m.voice?.durationMs ?? 0)}`;
  if (m.type === 'FILE' && file?.name) return `Файл: ${file.name}`;
  if (m.type === 'ENCRYPTED') return NOTIFICATION_TEXT.hidden;
  const text = messagePreview(m.type, m.content);
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS - 1)}…` : text;
}

/** A message worth saying: in the timeline (not a thread reply, a secret chat's control, a call or group entry). */
const said = (m: Message) => !m.control && !m.threadRootId && m.type !== 'CALL' && m.type !== 'SYSTEM';

export const announcerSources = fromCallback<EventObject>(({ system, sendBack }) => {
  const send = (event: AnnouncerEvent) => sendBack(event);
  const nameOf = (conversationId: string, userId: string) => {
    const entry = chatList(system)?.entries.find((e) => e.conversation.id === conversationId);
    const user = entry?.conversation.participants.find((p) => p.user.id === userId)?.user;
    return user ? displayName(user) : SOMEONE;
  };

  send({ type: 'announcer.opened', conversationId: chatList(system)?.selectedId ?? null });
  const stopSelected = onChats(system, 'chats.selected', (e) =>
    send({ type: 'announcer.opened', conversationId: e.conversationId }),
  );

  const server = systemActor(system, 'realtime')?.on('server.event', (e) => {
    if (e.name === 'message:new' || e.name === 'message:notify') {
      const m = e.payload.message;
      if (!said(m)) return;
      send({
        type: 'announcer.message',
        conversationId: m.conversationId,
        own: m.senderId === chatList(system)?.me,
        senderId: m.senderId,
        senderName: m.importedAuthor ?? nameOf(m.conversationId, m.senderId),
        preview: heardPreview(m),
      });
    } else if (e.name === 'conversation:typing') {
      const p = e.payload;
      if (p.typing && p.userId !== chatList(system)?.me)
        send({ type: 'announcer.typing', conversationId: p.conversationId, name: nameOf(p.conversationId, p.userId) });
    } else if (e.name === 'call:incoming') {
      send({ type: 'announcer.call', name: e.payload.from.name, video: e.payload.video });
    }
  });

  // Each file send's status as last seen: → uploading is a start; uploading → sending (or gone) done, → failed failed.
  type Seen = Map<string, { status: string; names: string[] }>;
  const seenIn = (items: readonly OutboxItem[]): Seen =>
    new Map(
      items
        .filter((i) => i.kind === 'files')
        .map((i) => [i.id, { status: i.status, names: i.files.map((f) => f.name) }]),
    );
  const watchItems = (ref: OutboxRef) => {
    let last = seenIn(ref.getSnapshot().context.items);
    return ref.subscribe((s) => {
      const now = seenIn(s.context.items);
      const tell = (phase: UploadPhase, names: string[]) => send({ type: 'announcer.upload', phase, names });
      for (const [id, was] of last) {
        const status = now.get(id)?.status;
        if (was.status === 'uploading' && status !== 'uploading')
          tell(status === 'failed' ? 'failed' : 'done', was.names);
      }
      for (const [id, item] of now)
        if (item.status === 'uploading' && last.get(id)?.status !== 'uploading') tell('started', item.names);
      last = now;
    });
  };
  let outbox: OutboxRef | undefined;
  let outboxSub: Subscription | undefined;
  const follow = () => {
    const next = outboxOf(systemActor(system, 'composer')?.getSnapshot());
    if (next === outbox) return;
    outboxSub?.unsubscribe();
    outbox = next;
    outboxSub = next ? watchItems(next) : undefined;
  };
  const composerSub = systemActor(system, 'composer')?.subscribe(follow);
  follow();

  return () => {
    stopSelected();
    server?.unsubscribe();
    composerSub?.unsubscribe();
    outboxSub?.unsubscribe();
  };
});
