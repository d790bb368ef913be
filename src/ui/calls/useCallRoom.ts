// A group's call's hands and moderation for the people panel: its actor (alive while the overlay is open) and the
// group's roles as plain values and callbacks. The server checks the roles again.
import { useSelector } from '@xstate/react';
import { CALL_ROOM_TAGS } from '../../machines/calls/callRoom/callRoom.protocol';
import { useSessionActor } from '../app/RuntimeContext';
import { useOwnedActor } from '../app/useOwnedActor';
import { useChatEntry } from '../shared/useChatList';
import type { GroupRoomPanel } from './conference-rules';

export function useCallRoom(conversationId: string): GroupRoomPanel {
  const actor = useOwnedActor('callRoom', { conversationId });
  const me = useSelector(useSessionActor('session'), (s) => s.context.session?.user.id ?? null);
  const role = useChatEntry(conversationId)?.conversation.participants.find((p) => p.user.id === me)?.role;
  const hands = useSelector(actor, (s) => s?.context.hands ?? NONE);
  return {
    hands,
    raised: !!me && hands.includes(me),
    canModerate: role === 'OWNER' || role === 'ADMIN',
    busy: useSelector(actor, (s) => s?.hasTag(CALL_ROOM_TAGS.busy) ?? false),
    notice: useSelector(actor, (s) => s?.context.notice ?? null),
    mutedTimes: useSelector(actor, (s) => s?.context.mutedTimes ?? 0),
    onRaiseHand: () => actor.send({ type: 'room.raiseHand' }),
    onLowerHand: () => actor.send({ type: 'room.lowerHand' }),
    onMute: (userId) => actor.send({ type: 'room.moderate', action: 'mute', userId }),
    onRemove: (userId) => actor.send({ type: 'room.moderate', action: 'remove', userId }),
    onDismissNotice: () => actor.send({ type: 'room.dismissNotice' }),
  };
}

const NONE: string[] = [];
