// The views of the contacts feature that other features and the app's routes render.

import { lazyView } from '../shared/lazy-view';
import type { ContactCodePanelProps } from './ContactCodePanel';

export type { ContactCodePanelProps } from './ContactCodePanel';
export type { ContactCodeView } from './useContactCode';
export { useContactCode } from './useContactCode';
export type { MemberCardProps } from './MemberCard';
export { useContacts } from './useContacts';
export { useGroupDialog } from './useGroupDialog';

// Loaded when first opened, keeping them out of the chats page's first bundle; a chunk that fails to load offers a
// retry (shared/ui/lazy-view.tsx).
export const LazyGroupDialog = lazyView(() => import('./GroupDialog').then((m) => m.ConnectedGroupDialog));
export const LazyContactsDialog = lazyView(() => import('./ContactsDialog').then((m) => m.ContactsDialog));
export const LazyContactsPage = lazyView(() => import('./ContactsPage').then((m) => m.ContactsPage));
/** The EBLID boxes load when the fold is first opened (the chats page's first bundle has a budget). */
export const LazyContactCodePanel = lazyView<ContactCodePanelProps>(() =>
  import('./ContactCodePanel').then((m) => m.ContactCodePanel),
);
