// Connects the page's router to the app's router service (src/services/app/router.ts, wired in main.tsx): every
// location, with react-router's navigate, goes to `onLocation`, so the navigation actor hears where the page is and
// can move it. Renders nothing.
import { useEffect } from 'react';
import { type NavigateFunction, useLocation, useNavigate } from 'react-router-dom';

export function RouterBridge(props: { onLocation(path: string, navigate: NavigateFunction): void }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { onLocation } = props;
  useEffect(() => {
    onLocation(pathname, navigate);
  }, [onLocation, navigate, pathname]);
  return null;
}
