// Which thread's panel is open, kept as a step of the browser's history (as «Информация» is): on a phone the panel
// covers the chat, and Back closes it and leaves the chat open.
import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';

export function useThreadOpen() {
  const location = useLocation();
  const navigate = useNavigate();
  const state = location.state as { thread?: unknown; step?: unknown } | null;
  const rootId = typeof state?.thread === 'string' ? state.thread : null;
  const { pathname, search } = location;
  const show = useCallback(
    (id: string) => {
      if (rootId === id) return;
      // Another thread replaces the open one (no extra step to go Back through).
      navigate(pathname + search, { state: { thread: id, step: true }, replace: rootId !== null });
    },
    [rootId, navigate, pathname, search],
  );
  // A step this chat pushed is taken back, as Back would; a thread opened from «Обсуждения» came with the chat's own
  // step, which stays (the chat remains open).
  const pushed = state?.step === true;
  const close = useCallback(() => {
    if (!rootId) return;
    if (pushed) navigate(-1);
    else navigate(pathname + search, { replace: true, state: null });
  }, [rootId, pushed, navigate, pathname, search]);
  return { rootId, show, close };
}
