// Who hears of a read, and how often (docs/groups.md, "Receipts and read cursors"). A read changes what two kinds of
// sockets show: the reader's other tabs (their unread counts and marks) and the sender of a message read for
// the first time (its '✓', docs/behaviour.md §4: shown once at least one other participant has read it). Nobody
// else shows anything for it, so nobody else is sent anything: in a group of n members with everyone reading,
// a message costs about one frame per reader's other tabs plus one to its sender, not n per reader.
//
// Senders are told once per message and process: `told` keeps, per conversation and sender, the newest of
// that sender's messages already announced (a cursor passes all older ones too). The first announcement goes
// at once; what further readers report for the same conversation during TIMINGS.receiptAnnounceMs is gathered
// and sent when the window ends, one frame per sender and reader.
import { TIMINGS } from '../../src/contract/limits';
import { type Clock, type ClockTimer, systemClock } from '../clock';
import type { RealtimeHub } from '../realtime/hub';
import type { ReadMessage } from './read-cursors';

export interface ReceiptAnnouncer {
  /** `readerId` read `messages` (visible messages of others, oldest first) from the tab `socketId`, if named. */
  read(conversationId: string, readerId: string, messages: readonly ReadMessage[], socketId?: string): void;
  close(): void;
}

/** Conversations whose announced positions are kept; the least recently read go first. */
const MAX_CONVERSATIONS = 20_000;

interface Window {
  timer: ClockTimer;
  /** sender → reader → message ids gathered in this window */
  pending: Map<string, Map<string, string[]>>;
}

export function createReceiptAnnouncer(
  realtime: RealtimeHub,
  clock: Clock = systemClock,
  windowMs: number = TIMINGS.receiptAnnounceMs,
): ReceiptAnnouncer {
  const told = new Map<string, Map<string, number>>();
  const windows = new Map<string, Window>();

  const toldIn = (conversationId: string) => {
    const known = told.get(conversationId) ?? new Map<string, number>();
    told.delete(conversationId);
    if (told.size >= MAX_CONVERSATIONS) told.delete(told.keys().next().value as string);
    told.set(conversationId, known);
    return known;
  };

  const send = (conversationId: string, pending: Map<string, Map<string, string[]>>) => {
    for (const [sender, byReader] of pending) {
      for (const [reader, messageIds] of byReader) {
        realtime.toUser(sender, 'receipts:update', { conversationId, userId: reader, messageIds, status: 'READ' });
      }
    }
  };

  const open = (conversationId: string) => {
    const w: Window = {
      pending: new Map(),
      timer: clock.setTimeout(() => {
        windows.delete(conversationId);
        if (w.pending.size === 0) return;
        send(conversationId, w.pending);
        open(conversationId);
      }, windowMs),
    };
    windows.set(conversationId, w);
  };

  return {
    read(conversationId, readerId, messages, socketId) {
      if (messages.length === 0) return;
      realtime.toUserExcept(readerId, socketId, 'receipts:update', {
        conversationId,
        userId: readerId,
        messageIds: messages.map((m) => m.id),
        status: 'READ',
      });
      const known = toldIn(conversationId);
      const fresh = new Map<string, Map<string, string[]>>();
      for (const m of messages) {
        if (m.sender_id === readerId || m.seq <= (known.get(m.sender_id) ?? 0)) continue;
        known.set(m.sender_id, m.seq);
        const byReader = fresh.get(m.sender_id) ?? new Map<string, string[]>();
        fresh.set(m.sender_id, byReader);
        byReader.set(readerId, [...(byReader.get(readerId) ?? []), m.id]);
      }
      if (fresh.size === 0) return;
      const w = windows.get(conversationId);
      if (!w) {
        send(conversationId, fresh);
        open(conversationId);
        return;
      }
      for (const [sender, byReader] of fresh) {
        const into = w.pending.get(sender) ?? new Map<string, string[]>();
        w.pending.set(sender, into);
        for (const [reader, ids] of byReader) into.set(reader, [...(into.get(reader) ?? []), ...ids]);
      }
    },
    close() {
      for (const w of windows.values()) clock.clearTimeout(w.timer);
      windows.clear();
    },
  };
}
