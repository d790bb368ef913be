// The pane as the chats page shows it: ConversationView with the composer's view-owned actors (the send preview and
// the «@» list) alive while it is mounted. In the pane's own chunk, so the composer's views stay out of the list's
// first JavaScript; ConversationView itself renders from props.
import { Suspense, useCallback, useState } from 'react';
import type { PublicUser } from '../../contract/entities';
import { useMentionPicker, useSendPreview } from '../composer/index';
import { LazyMemberCard } from '../contacts/deferred';
import { ConversationView, type ConversationViewProps } from './ConversationView';

export function ConversationPaneView(props: ConversationViewProps) {
  const sendPreview = useSendPreview();
  const mentionPicker = useMentionPicker({
    members: props.mentionable ?? [],
    everyone: props.mentionEveryone ?? false,
    text: props.composer.text,
    onText: props.composer.onText,
  });
  // A sender's name in a group opens their member card (docs/behaviour.md §10.26).
  const [card, setCard] = useState<PublicUser | null>(null);
  const closeCard = useCallback(() => setCard(null), []);
  const { members } = props;
  const onSender = members ? (id: string) => setCard(members.get(id) ?? null) : undefined;
  return (
    <>
      <ConversationView {...props} sendPreview={sendPreview} mentionPicker={mentionPicker} onSender={onSender} />
      {card && (
        <Suspense fallback={null}>
          <LazyMemberCard key={card.id} user={card} onClose={closeCard} />
        </Suspense>
      )}
    </>
  );
}
