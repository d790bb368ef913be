// Plain view models of the chats page, computed from the actors' snapshots: list tiles, the conversation header
// and the message rows (server messages plus the outbox's pending ones). Pure, so the views render from props.

import { customStatusLine } from '../../contract/custom-status';
import type { ConversationEntry, Message, MessageType, PublicUser, TextEntity } from '../../contract/entities';
import {
  type AvatarView,
  conversationTitle,
  directPeer,
  displayName,
  formatTime,
  presenceText,
  repliesText,
  replyPreview,
} from '../../contract/format';
import { mentionsEveryone } from '../../contract/message-privacy';
import { itemProgress, type OutboxItem } from '../../machines/composer/index';
import { isReadByOthers } from '../../machines/conversation/conversation/read-mark';
import { type SecretAttachment, secretKindOf } from '../../machines/secretChats/secretChat/secretChat.protocol';
import { type SecretText, shownText } from '../../machines/secretChats/secretDevice/secretDevice.protocol';
import { importedSenderName } from '../historyImport/index';
import type { PollRowView } from '../polls/index';
import { avatarOf, groupNames } from './chat-tile';
import { dayLabel, editedTitle } from './day-label';
import { systemText } from './system-text';
import { callLabel, isMissedFor } from './voice-call-text';

export type { AvatarView } from '../../contract/format';
export { type ChatTileView, chatTile } from './chat-tile';

export interface HeaderView {
  title: string;
  avatar: AvatarView;
  /** 'ОНЛАЙН' / last seen for a direct chat; the participants for a group. */
  status: string;
  online: boolean;
  /** A direct chat's peer's status of their own («🌴 В отпуске»), apart from presence; absent when none. */
  customStatus?: string;
  /** A secret chat: a lock and «Секретный чат»; no calls in it yet. */
  secret?: boolean;
}

export function headerOf(entry: ConversationEntry, me: string | null, now: number): HeaderView {
  const peer = directPeer(entry.conversation, me);
  return {
    title: conversationTitle(entry.conversation, me),
    avatar: avatarOf(entry, me),
    status: peer ? presenceText(peer, now) : groupNames(entry, me),
    online: peer?.status === 'ONLINE',
    ...(peer?.customStatus ? { customStatus: customStatusLine(peer.customStatus) } : {}),
    ...(entry.conversation.secret ? { secret: true } : {}),
  };
}

export type Delivery = 'sending' | 'sent' | 'read' | 'failed';

/** One emoji under a bubble: how many gave it, whether I did, and who (names for the tooltip and screen readers). */
export interface ReactionView {
  emoji: string;
  count: number;
  mine: boolean;
  names: string[];
}

export interface AttachmentView {
  url: string;
  kind: 'IMAGE' | 'FILE' | 'AUDIO';
  name: string;
  width: number | null;
  height: number | null;
  /** Bytes; null when the server did not keep it. */
  size?: number | null;
}

export interface PendingFileView {
  name: string;
  progress: number;
  done: boolean;
}

export interface MessageRow {
  /** Stable across the send: the clientMessageId when there is one, so the bubble is not re-created. */
  key: string;
  /** The server id, or the temporary 'tmp-' id of an outbox item. */
  id: string;
  own: boolean;
  senderId: string;
  senderName: string;
  /** Name shown above the first bubble of a sender's run in a group. */
  showSender: boolean;
  /** First / last bubble of a run of one sender (bubble corners, spacing). */
  firstInRun: boolean;
  lastInRun: boolean;
  /** A date line above the first message of a day. */
  day: string | null;
  /** The day of this message («Сегодня», «Вчера», «12 ноября»): the sticky line while it is at the top. */
  dayOf: string;
  /** «Непрочитанные сообщения» above this row (the first message unread when the conversation opened). */
  unreadDivider: boolean;
  /** The edited mark's title (when and that it was edited); null when never edited. */
  edited: string | null;
  /** Own message whose text can be changed (delivered, and text or a caption exists). */
  editable: boolean;
  /** A secret message MLS says someone else wrote than its server sender: no reply, edit or reaction on it. */
  unverified?: boolean;
  reactions: ReactionView[];
  time: string;
  type: MessageType;
  text: string;
  attachments: AttachmentView[];
  reply: { id: string; preview: string } | null;
  /** A forwarded copy: the original sender's name («Переслано · …»). */
  forwardedFrom?: string | null;
  /** A reminder in «Избранное»: the address of the chat its message is in (docs/behaviour.md §10.32). */
  reminderOf?: string | null;
  /** The names this message mentions as they are shown in its text, and whether it is the user. */
  mentions?: { name: string; me: boolean }[];
  /** The text's formatting (absent: plain). */
  entities?: TextEntity[];
  /** A voice message: its recording (null while it uploads), length and waveform. */
  voice?: { url: string | null; durationMs: number; waveform: number[] } | null;
  /** A call entry: its words for this user, whether it was a video call, whether this user missed it. */
  call?: { label: string; video: boolean; missed: boolean } | null;
  /** A secret chat's ENCRYPTED message: its ciphertext, which this device reads (secretChats' EncryptedText). */
  encrypted?: { conversationId: string; ciphertext: string; createdAt: string; senderId: string } | null;
  /** A secret message's text as this device read it (what a screen reader says of it; the view decrypts its own). */
  secretText?: string;
  /**
   * The pictures of a secret message as this device read them (the server's attachments are none: its files travel
   * inside the ciphertext); the lightbox decrypts the one it shows.
   */
  secretImages?: SecretAttachment[];
  /** A thread's root with replies: «N ответов» and the last repliers (newest first). */
  thread?: { label: string; repliers: { id: string; displayName: string; avatarUrl: string | null }[] } | null;
  /** A thread reply (shown in its thread's panel, never in the timeline). */
  threadRootId?: string | null;
  /** The message has a link card (its state is the conversation's child 'previewCard:<id>'). */
  hasPreview?: boolean;
  /** A poll: as the server last said, who may close it, and the names of those who voted (non-anonymous). */
  poll?: PollRowView | null;
  /** A group's SYSTEM entry: its words («Анна добавил(а) участника: Борис»), shown centred, without a bubble. */
  system?: string | null;
  delivery: Delivery | null;
  /** A message from someone else this user has not read yet (read receipts watch it). */
  unread: boolean;
  /** Outbox details of a message the server does not have yet. */
  pending: null | {
    outboxId: string;
    progress: number;
    uploading: boolean;
    files: PendingFileView[];
    error: string | null;
    retryable: boolean;
  };
}

const attachmentView = (a: Message['attachments'][number]): AttachmentView => ({
  url: a.url,
  kind: a.type,
  name: a.name ?? a.url.split('/').pop() ?? 'файл',
  width: a.width,
  height: a.height,
  size: a.size,
});

function pendingType(item: OutboxItem): MessageType {
  if (item.kind === 'text') return 'TEXT';
  if (item.kind === 'voice') return 'VOICE';
  return item.files.every((f) => /^image\//.test(f.mime)) ? 'IMAGE' : 'FILE';
}

/** Ascending rows: the server's messages, then the outbox items of this conversation not yet among them. */
/** The names a message mentions; `@все` too when the server took it as everyone's (docs/behaviour.md §10.26). */
export function mentionViews(m: Message, me: string | null, name: (id: string) => string) {
  const ids = m.mentions ?? [];
  const views = ids.map((id) => ({ name: name(id), me: id === me }));
  if (mentionsEveryone(m.content)) views.push({ name: 'все', me: me !== null && ids.includes(me) });
  return views;
}

export function messageRows(
  messages: Message[],
  outbox: OutboxItem[],
  options: {
    me: string;
    conversationId: string;
    isGroup: boolean;
    people: Map<string, PublicUser>;
    /** The first message unread at opening (conversation actor's unreadFrom). */
    unreadFrom?: string | null;
    now?: Date;
    /** What this device read of the secret chat's ENCRYPTED messages (its edits and reactions included). */
    secret?: Readonly<Record<string, SecretText>>;
    /** Lines of the device's own (a secret chat's «новое устройство»), placed among the messages by time. */
    lines?: { key: string; at: string; text: string }[];
    /** The user is the group's owner or an admin (closes anyone's poll). */
    admin?: boolean;
  },
): MessageRow[] {
  const { me, people } = options;
  const now = options.now ?? new Date();
  const delivered = new Set(messages.map((m) => m.clientMessageId).filter(Boolean));
  const name = (id: string) => {
    const u = people.get(id);
    return u ? displayName(u) : 'Участник';
  };
  type Base = Omit<MessageRow, 'showSender' | 'firstInRun' | 'lastInRun' | 'day' | 'dayOf'> & { at: Date };
  // A secret chat's edits and reactions are applied by the device to the messages they name, never shown.
  const shown = messages.some((m) => m.control) ? messages.filter((m) => !m.control) : messages;
  const base: Base[] = shown.map((m) => {
    // An imported author kept as a name is someone else's message, though stored under the importer's id.
    const importedName = importedSenderName(m);
    const own = m.senderId === me && importedName === null;
    const at = new Date(m.createdAt);
    const known = m.type === 'ENCRYPTED' ? shownText(options.secret?.[m.id], m.senderId) : undefined;
    const read = known?.status === 'text' ? known : null;
    const reactions = read ? (read.reactions ?? []) : m.reactions;
    const editedAt = read ? read.edited : m.editedAt;
    return {
      key: m.clientMessageId && own ? m.clientMessageId : m.id,
      id: m.id,
      own,
      senderId: m.senderId,
      // An imported author matched to nobody here keeps the export's name: «Ольга (из Telegram)».
      senderName: importedName ?? name(m.senderId),
      time: formatTime(at),
      at,
      type: m.type,
      // An ENCRYPTED message's content is ciphertext: its text is what this device decrypted (or kept when sent).
      // A poll's question is its card's (PollCard), not a text of the bubble.
      text: m.type === 'ENCRYPTED' || m.type === 'POLL' ? '' : m.content,
      encrypted:
        m.type === 'ENCRYPTED'
          ? { conversationId: m.conversationId, ciphertext: m.content, createdAt: m.createdAt, senderId: m.senderId }
          : null,
      attachments: m.attachments.map(attachmentView),
      ...secretImagesOf(read?.attachments),
      ...(read?.text ? { secretText: read.text } : {}),
      reply: m.replyTo ? { id: m.replyTo.id, preview: replyPreview(m.replyTo.content) } : null,
      forwardedFrom: m.forwardedFrom?.name ?? null,
      ...(m.reminderOf ? { reminderOf: `/c/${m.reminderOf.conversationId}` } : {}),
      ...(m.mentions?.length ? { mentions: mentionViews(m, me, name) } : {}),
      ...(m.entities?.length && m.type !== 'ENCRYPTED' && m.type !== 'POLL' ? { entities: m.entities } : {}),
      voice: m.voice ? { url: m.attachments[0]?.url ?? null, ...m.voice } : null,
      call: m.call
        ? { label: callLabel(m.call, me), video: m.call.kind === 'video', missed: isMissedFor(m.call, me) }
        : null,
      system: m.system ? systemText(m.system) : null,
      poll: m.poll
        ? {
            info: m.poll,
            canClose: own || Boolean(options.admin),
            names: Object.fromEntries(
              m.poll.options.flatMap((o) => o.voters ?? []).map((id) => [id, id === me ? 'Вы' : name(id)]),
            ),
          }
        : null,
      thread: m.thread?.replyCount
        ? {
            label: repliesText(m.thread.replyCount),
            repliers: m.thread.repliers.map((id) => ({
              id,
              displayName: name(id),
              avatarUrl: people.get(id)?.avatarUrl ?? null,
            })),
          }
        : null,
      threadRootId: m.threadRootId ?? null,
      ...(m.preview ? { hasPreview: true } : {}),
      delivery: own ? (isReadByOthers(m) ? 'read' : 'sent') : null,
      unread: !own && !m.receipts.some((r) => r.userId === me),
      unreadDivider: m.id === options.unreadFrom,
      edited: editedAt ? editedTitle(new Date(editedAt), now) : null,
      // A secret message's edit is an encrypted message of its own: once this device has read the text.
      ...(known?.status === 'forged' ? { unverified: true } : {}),
      editable:
        own &&
        m.type !== 'POLL' &&
        (m.type === 'ENCRYPTED' ? read !== null : m.type === 'TEXT' || m.content.length > 0),
      reactions: reactions.map((r) => ({
        emoji: r.emoji,
        count: r.userIds.length,
        mine: r.userIds.includes(me),
        names: r.userIds.map(name),
      })),
      pending: null,
    };
  });
  if (options.lines?.length) {
    const lines: Base[] = options.lines.map((l) => {
      const at = new Date(l.at);
      return {
        key: l.key,
        id: l.key,
        own: false,
        senderId: '',
        senderName: '',
        time: Number.isNaN(at.getTime()) ? '' : formatTime(at),
        at,
        type: 'SYSTEM',
        text: '',
        attachments: [],
        reply: null,
        system: l.text,
        delivery: null,
        unread: false,
        unreadDivider: false,
        edited: null,
        editable: false,
        reactions: [],
        pending: null,
      };
    });
    // Each line before the first message after it; the messages keep their order.
    for (const line of lines.sort((x, y) => x.at.getTime() - y.at.getTime())) {
      const i = base.findIndex((b) => b.at.getTime() > line.at.getTime());
      base.splice(i < 0 ? base.length : i, 0, line);
    }
  }
  for (const item of outbox) {
    // A thread reply waits in its thread's panel, not in the timeline.
    if (item.conversationId !== options.conversationId || item.threadRootId || delivered.has(item.clientMessageId))
      continue;
    const at = new Date(item.createdAt);
    base.push({
      key: item.clientMessageId,
      id: item.id,
      own: true,
      senderId: me,
      senderName: name(me),
      time: Number.isNaN(at.getTime()) ? '' : formatTime(at),
      at,
      type: pendingType(item),
      text: item.content,
      ...(item.entities?.length ? { entities: item.entities } : {}),
      attachments: item.files.flatMap((f) => (f.attachment ? [attachmentView(f.attachment)] : [])),
      reply: item.replyTo ? { id: item.replyTo.id, preview: replyPreview(item.replyTo.content) } : null,
      voice: item.voice ? { url: item.files[0]?.attachment?.url ?? null, ...item.voice } : null,
      call: null,
      delivery: item.status === 'failed' ? 'failed' : 'sending',
      unread: false,
      unreadDivider: false,
      edited: null,
      editable: false,
      reactions: [],
      pending: {
        outboxId: item.id,
        progress: itemProgress(item),
        uploading: item.status === 'uploading',
        files: item.files.map((f) => ({
          name: f.name,
          progress: f.attachment ? 100 : f.progress,
          done: !!f.attachment,
        })),
        error: item.error,
        retryable: item.retryable,
      },
    });
  }
  // A service line («… создал(а) группу») stands alone: the actor's next message starts a run and shows the name.
  // Imported authors kept as names share the importer's id: their names tell them apart.
  const sameRun = (a: Base | undefined, b: Base) =>
    !!a && !a.system && !b.system && a.senderId === b.senderId && a.senderName === b.senderName;
  return base.map(({ at, ...row }, i) => {
    const prev = base[i - 1];
    const next = base[i + 1];
    const dayOf = Number.isNaN(at.getTime()) ? '' : dayLabel(at, now);
    const day = !prev || prev.at.toDateString() !== at.toDateString() ? dayOf || null : null;
    const firstInRun = !sameRun(prev, base[i]) || day !== null;
    const lastInRun = !next || !sameRun(base[i], next) || next.at.toDateString() !== at.toDateString();
    const showSender = options.isGroup && !row.own && !row.system && firstInRun;
    return { ...row, day, dayOf, firstInRun, lastInRun, showSender };
  });
}

function secretImagesOf(attachments: SecretAttachment[] | undefined): { secretImages?: SecretAttachment[] } {
  const images = attachments?.filter((a) => secretKindOf(a) === 'IMAGE') ?? [];
  return images.length ? { secretImages: images } : {};
}

/** One image of the lightbox: a secret chat's carries what decrypts it (its url is the ciphertext's). */
export interface GalleryItem {
  url: string;
  name: string;
  secret?: SecretAttachment;
}

/**
 * Every image of the loaded history, for the lightbox's previous/next: a message's own pictures, then (a secret
 * message) those this device decrypted, in the order its bubble shows them.
 */
export function galleryOf(rows: MessageRow[]): { items: GalleryItem[]; start: Map<string, number> } {
  const items: GalleryItem[] = [];
  const start = new Map<string, number>();
  for (const row of rows) {
    const images: GalleryItem[] = [
      ...row.attachments.filter((a) => a.kind === 'IMAGE').map((a) => ({ url: a.url, name: a.name })),
      ...(row.secretImages ?? []).map((a) => ({ url: a.url, name: a.name, secret: a })),
    ];
    if (!images.length) continue;
    start.set(row.id, items.length);
    items.push(...images);
  }
  return { items, start };
}

/** "Анна печатает" / "Анна и Борис печатают" / "Несколько человек печатают". */
export function typingText(names: string[]): string {
  if (names.length === 0) return '';
  if (names.length === 1) return `${names[0]} печатает`;
  if (names.length === 2) return `${names[0]} и ${names[1]} печатают`;
  return 'Несколько человек печатают';
}
