// A member card's actor (src/machines/contacts/memberCard) as plain values and callbacks: the card of a sender in a
// group's timeline (`memberCard`) or a row's «Написать» in «Информация» (`memberWrite`, which opens the chat at
// once). The actor lives while the view that calls this is mounted; `onDone` unmounts it once the chat is open or
// the card closed.
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { customStatusLine } from '../../contract/custom-status';
import type { PublicUser } from '../../contract/entities';
import { displayName, presenceText } from '../../contract/format';
import { CARD_TAGS, type Relation } from '../../machines/contacts/memberCard/memberCard.protocol';
import { useOwnedActor } from '../app/useOwnedActor';

export interface MemberCardView {
  user: PublicUser;
  name: string;
  username: string;
  presence: string;
  /** Their status of their own («🌴 В отпуске»), '' when none. */
  customStatus: string;
  online: boolean;
  /** Null while unknown (being read, or the read failed): friendship is not offered then. */
  relation: Relation | null;
  loading: boolean;
  busy: boolean;
  error: string | null;
  onWrite(): void;
  onBefriend(): void;
  onDismiss(): void;
  onClose(): void;
}

export function useMemberCard(
  id: 'memberCard' | 'memberWrite',
  user: PublicUser,
  onDone: () => void,
  now: number = Date.now(),
): MemberCardView {
  const actor = useOwnedActor(id, { user, write: id === 'memberWrite' });
  const loading = useSelector(actor, (s) => s?.hasTag(CARD_TAGS.loading) ?? true);
  const busy = useSelector(actor, (s) => s?.hasTag(CARD_TAGS.busy) ?? false);
  const done = useSelector(actor, (s) => s?.hasTag(CARD_TAGS.done) ?? false);
  const relation = useSelector(actor, (s) => s?.context.relation ?? null);
  const error = useSelector(actor, (s) => s?.context.error ?? null);
  useEffect(() => {
    if (done) onDone();
  }, [done, onDone]);
  return {
    user,
    name: displayName(user),
    username: user.username,
    presence: presenceText(user, now),
    customStatus: customStatusLine(user.customStatus),
    online: user.status === 'ONLINE',
    relation,
    loading,
    busy,
    error,
    onWrite: () => actor.send({ type: 'card.write' }),
    onBefriend: () => actor.send({ type: 'card.befriend' }),
    onDismiss: () => actor.send({ type: 'card.dismiss' }),
    onClose: () => actor.send({ type: 'card.close' }),
  };
}
