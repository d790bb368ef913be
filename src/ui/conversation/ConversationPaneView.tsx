// The pane as the chats page shows it: ConversationView with the composer's view-owned actors (the send preview and
// the «@» list) alive while it is mounted. In the pane's own chunk, so the composer's views stay out of the list's
// first JavaScript; ConversationView itself renders from props.
import { useMentionPicker, useSendPreview } from '../composer/index';
import { ConversationView, type ConversationViewProps } from './ConversationView';

export function ConversationPaneView(props: ConversationViewProps) {
  const sendPreview = useSendPreview();
  const mentionPicker = useMentionPicker({
    members: props.mentionable ?? [],
    text: props.composer.text,
    onText: props.composer.onText,
  });
  return <ConversationView {...props} sendPreview={sendPreview} mentionPicker={mentionPicker} />;
}
