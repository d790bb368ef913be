// The conference chunk (livekit-client + @livekit/components-react + their styles) loads only when a call or a
// room opens: the chats page's first bundle never includes it.
import { lazy } from 'react';

export const LazyConference = lazy(() => import('./Conference'));
