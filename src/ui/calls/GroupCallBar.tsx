// A group's call bar (docs/calls.md "Group calls"): while the group's call is on, the conversation's header says
// «Идёт звонок» with who is in it and offers «Присоединиться». Who is in it is the server's (the list's `groupCall`,
// kept current by groupCall:state); the bar hides while this tab is in that call.
import { useSelector } from '@xstate/react';
import type { ConversationEntry } from '../../contract/entities';
import { type AvatarView, avatarColour, avatarFace, displayName, membersText } from '../../contract/format';
import { useLateSessionActor } from '../app/useOwnedActor';
import { ChatAvatar } from '../shared/ChatAvatar';
import './group-call-bar.css';

/** Avatars shown before the count. */
const FACES = 3;

export interface GroupCallBarProps {
  count: number;
  avatars: AvatarView[];
  onJoin(): void;
}

export function GroupCallBar(props: GroupCallBarProps) {
  return (
    <div className="group-call-bar" role="status" data-testid="group-call-bar">
      <span className="group-call-bar-faces" aria-hidden="true">
        {props.avatars.map((a, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the first faces in joining order, redrawn as a whole
          <ChatAvatar key={i} avatar={a} size={24} />
        ))}
      </span>
      <span className="group-call-bar-text">Идёт звонок · {membersText(props.count)}</span>
      <button type="button" className="button group-call-join" onClick={props.onJoin}>
        Присоединиться
      </button>
    </div>
  );
}

/** The bar's props for a conversation's entry: null when no call is on or this tab is in it. */
export function useGroupCallBar(entry: ConversationEntry | null | undefined): GroupCallBarProps | null {
  const call = useLateSessionActor('call');
  const conversationId = entry?.conversation.id ?? null;
  const here = useSelector(call, (s) => !!s?.hasTag('open') && s.context.activeConvId === conversationId);
  const ids = entry?.groupCall?.participantIds;
  if (!entry || !ids?.length || here) return null;
  const people = new Map(entry.conversation.participants.map((p) => [p.user.id, p.user]));
  const avatars = ids.slice(0, FACES).flatMap((id) => {
    const u = people.get(id);
    return u ? [{ face: avatarFace(u.avatarUrl, displayName(u)), colour: avatarColour(u.id), presence: null }] : [];
  });
  return {
    count: ids.length,
    avatars,
    onJoin: () =>
      // A video call is joined with the camera on, an audio call without.
      call.send({
        type: 'call.startOutgoing',
        conversationId: entry.conversation.id,
        video: entry.groupCall?.video === true,
        group: 'join',
      }),
  };
}
