// Which thread's panel is open, kept as a step of the browser's history (as «Информация» is): on a phone the panel
// covers the chat, and Back closes it and leaves the chat open.
import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';

export function useThreadOpen() {
  const location = useLocation();
  const navigate = useNavigate();
  const state = location.state as { thread?: unknown; step?: unknown; found?: unknown } | null;
  const rootId = typeof state?.thread === 'string' ? state.thread : null;
  // The reply a search result opened the thread at (highlighted in the panel).
  const found = rootId && typeof state?.found === 'string' ? state.found : null;
  const { pathname, search } = location;
  const show = useCallback(
    (id: string, at?: string) => {
      if (rootId === id && !at) return;
      // Another thread (or another reply of this one) replaces the open one (no extra step to go Back through).
      const next = { thread: id, step: rootId === null ? true : state?.step === true, ...(at ? { found: at } : {}) };
      navigate(pathname + search, { state: next, replace: rootId !== null });
    },
    [rootId, state?.step, navigate, pathname, search],
  );
  // A step this chat pushed is taken back, as Back would; a thread opened from «Обсуждения» came with the chat's own
  // step, which stays (the chat remains open).
  const pushed = state?.step === true;
  const close = useCallback(() => {
    if (!rootId) return;
    if (pushed) navigate(-1);
    else navigate(pathname + search, { replace: true, state: null });
  }, [rootId, pushed, navigate, pathname, search]);
  return { rootId, found, show, close };
}
