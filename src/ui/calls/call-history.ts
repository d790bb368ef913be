// The calls page's history rows (pure): who (the conversation's title and picture, as its chat tile shows them),
// the call in words («Входящий видеозвонок · 3:12», «Пропущенный звонок»), missed ones marked, and when.
import type { ConversationEntry } from '../../contract/entities';
import type { AvatarView } from '../../contract/format';
import { avatarColour, avatarFace } from '../../contract/format';
import type { CallHistoryEntry } from '../../machines/calls/callsPage/callsPage.protocol';
import { callLabel, chatTile, isMissedFor, tileTime } from '../conversation/index';

export interface CallHistoryRow {
  id: string;
  conversationId: string;
  who: string;
  avatar: AvatarView;
  /** «Исходящий звонок · 0:42», «Пропущенный звонок», «Звонок отклонён», … */
  label: string;
  missed: boolean;
  video: boolean;
  when: string;
  /** The full date and time, for the tooltip. */
  at: string;
}

export function callHistoryRows(
  calls: CallHistoryEntry[],
  entries: ConversationEntry[],
  me: string | null,
  now: number,
): CallHistoryRow[] {
  const byId = new Map(entries.map((e) => [e.conversation.id, e]));
  return calls.map((c) => {
    const entry = byId.get(c.conversationId);
    const tile = entry ? chatTile(entry, me, null, now) : null;
    return {
      id: c.id,
      conversationId: c.conversationId,
      who: tile?.title ?? 'Беседа',
      avatar: tile
        ? { ...tile.avatar, presence: null }
        : { face: avatarFace(null, 'Беседа'), colour: avatarColour(c.conversationId), presence: null },
      label: callLabel(c.call, me ?? ''),
      missed: isMissedFor(c.call, me ?? ''),
      video: c.call.kind === 'video',
      when: tileTime(c.createdAt, now) ?? '',
      at: new Date(c.createdAt).toLocaleString('ru-RU'),
    };
  });
}
