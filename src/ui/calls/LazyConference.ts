// The conference chunk (livekit-client + @livekit/components-react + their styles) loads only when a call or a
// room opens: the chats page's first bundle never includes it. A failed load offers a retry (lazy-view.tsx).
import { lazyView } from '../shared/lazy-view';

export const LazyConference = lazyView(() => import('./Conference').then((m) => m.default));
