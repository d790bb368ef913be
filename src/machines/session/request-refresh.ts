// Asks the session for fresh tokens and waits for its answer (the session answers every request, sharing a
// refresh already in flight). Resolves the new access token, or null when the session could not refresh.
import type { SessionActorRef } from './session.machine';

export function requestRefresh(session: SessionActorRef): Promise<string | null> {
  return new Promise((resolve) => {
    const sub = session.on('session.refreshed', (e) => {
      sub.unsubscribe();
      resolve(e.accessToken);
    });
    session.send({ type: 'session.refresh' });
  });
}
