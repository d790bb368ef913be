// Connects the page's router to the app's router service (src/core/services/router.ts): the navigation actor hears
// every location and moves the address through react-router's navigate. Renders nothing.
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { BridgedRouter } from '../services/router';

export function RouterBridge(props: { router: BridgedRouter }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { router } = props;
  useEffect(() => {
    router.attach(pathname, navigate);
  }, [router, navigate, pathname]);
  return null;
}
