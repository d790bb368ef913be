// The contacts feature's views that only code loading after the first paint renders (the conversation pane and its
// parts): apart from index.ts on purpose, which the first bundle loads, so their loaders are not in it.
import { lazyView } from '../shared/lazy-view';
import type { MemberCardProps } from './MemberCard';

/** A group member's card and a row's «Написать» load when first used (docs/behaviour.md §10.26). */
export const LazyMemberCard = lazyView<MemberCardProps>(() => import('./MemberCard').then((m) => m.MemberCard));
export const LazyMemberWrite = lazyView<MemberCardProps>(() => import('./MemberCard').then((m) => m.MemberWrite));
