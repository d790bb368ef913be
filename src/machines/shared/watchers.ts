// Small callback actors that turn the environment into events: whether the page is visible, whether the window
// has focus. They touch only the DOM, no service. (Who is signed in: session/watch-signed-in-user.ts.)
import { type EventObject, fromCallback } from 'xstate';

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

/** The browser coming back online (`window`'s online event), as `{ type }` events. */
export function watchOnline<T extends string>(type: T) {
  return fromCallback<EventObject, void, { type: T }>(({ sendBack }) => {
    if (typeof window === 'undefined') return;
    const online = () => sendBack({ type });
    window.addEventListener('online', online);
    return () => window.removeEventListener('online', online);
  });
}
