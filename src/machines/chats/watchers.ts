// Small callback actors that turn the environment into events: who is signed in (the session actor), whether
// the page is visible, whether the window has focus. They touch only the actor system and the DOM, no service.
import { type EventObject, fromCallback } from 'xstate';
import type { SessionActorRef } from '../session/session.machine';

export type SessionChange = { type: 'chats.signedIn'; userId: string } | { type: 'chats.signedOut' };

/** Reports the signed-in user (at once, then on every change) from the actor with systemId 'session'. */
export const watchSession = fromCallback<EventObject, void, SessionChange>(({ system, sendBack }) => {
  const session = system.get('session') as SessionActorRef | undefined;
  if (!session) return;
  let current: string | null | undefined;
  const report = (userId: string | null) => {
    if (userId === current) return;
    current = userId;
    sendBack(userId ? { type: 'chats.signedIn', userId } : { type: 'chats.signedOut' });
  };
  report(session.getSnapshot().context.session?.user.id ?? null);
  const sub = session.subscribe((s) => report(s.context.session?.user.id ?? null));
  return () => sub.unsubscribe();
});

/** `document.visibilityState` as `{ type, visible }` events (at once, then on change). */
export function watchPageVisibility<T extends string>(type: T) {
  return fromCallback<EventObject, void, { type: T; visible: boolean }>(({ sendBack }) => {
    if (typeof document === 'undefined') return;
    const report = () => sendBack({ type, visible: document.visibilityState !== 'hidden' });
    report();
    document.addEventListener('visibilitychange', report);
    return () => document.removeEventListener('visibilitychange', report);
  });
}

/** Window focus as `{ type, focused }` events (at once, then on focus and blur). */
export function watchWindowFocus<T extends string>(type: T) {
  return fromCallback<EventObject, void, { type: T; focused: boolean }>(({ sendBack }) => {
    if (typeof window === 'undefined' || typeof document === 'undefined') return;
    const onFocus = () => sendBack({ type, focused: true });
    const onBlur = () => sendBack({ type, focused: false });
    sendBack({ type, focused: document.hasFocus() });
    window.addEventListener('focus', onFocus);
    window.addEventListener('blur', onBlur);
    return () => {
      window.removeEventListener('focus', onFocus);
      window.removeEventListener('blur', onBlur);
    };
  });
}
