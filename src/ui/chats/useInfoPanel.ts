// Whether «Информация» is open, kept as a step of the browser's history (the location's state), not in a component:
// on a phone the panel covers the chat, and Back must close it and leave the chat open, not go on to the list.
import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';

export function useInfoPanel() {
  const location = useLocation();
  const navigate = useNavigate();
  const open = (location.state as { info?: unknown } | null)?.info === true;
  const { pathname, search } = location;
  const show = useCallback(() => {
    if (!open) navigate(pathname + search, { state: { info: true } });
  }, [open, navigate, pathname, search]);
  // The step this panel pushed is taken back, as Back would: a later Back then leaves the chat, not reopens it.
  const close = useCallback(() => {
    if (open) navigate(-1);
  }, [open, navigate]);
  return { open, show, close };
}
