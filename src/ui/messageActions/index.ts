// The views of the message actions that other features render. The dialogs and the emoji picker load on demand.
import { lazyView } from '../shared/lazy-view';
import type { EditHistoryDialogProps } from './EditHistoryDialog';
import type { ForwardDialogProps } from './ForwardDialog';
import type { MessageInfoDialogProps } from './MessageInfoDialog';

export { RemovalPrompt } from './RemovalPrompt';
export { SelectionBar } from './SelectionBar';
export { type ActionRow, type MessageActionsView, useMessageActions } from './useMessageActions';
export type { ForwardTarget } from './ForwardDialog';

export const LazyForwardDialog = lazyView<ForwardDialogProps>(() =>
  import('./ForwardDialog').then((m) => m.ForwardDialog),
);
export const LazyMessageInfoDialog = lazyView<MessageInfoDialogProps>(() =>
  import('./MessageInfoDialog').then((m) => m.MessageInfoDialog),
);
export const LazyEditHistoryDialog = lazyView<EditHistoryDialogProps>(() =>
  import('./EditHistoryDialog').then((m) => m.EditHistoryDialog),
);
