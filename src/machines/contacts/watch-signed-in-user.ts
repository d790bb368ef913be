// Who is signed in, as events of the caller's own names: at once, then on every change of the session actor
// (systemId 'session'). Feature actors load their data for a user and drop it when that user signs out.
import { type EventObject, fromCallback } from 'xstate';
import type { SessionActorRef } from '../session/session.machine';

export function watchSignedInUser<In extends string, Out extends string>(signedIn: In, signedOut: Out) {
  type Change = { type: In; userId: string } | { type: Out };
  return fromCallback<EventObject, void, Change>(({ system, sendBack }) => {
    const session = system.get('session') as SessionActorRef | undefined;
    if (!session) return;
    let current: string | null | undefined;
    const report = (userId: string | null) => {
      if (userId === current) return;
      // Another user in the same tab: the previous one's data goes first.
      if (current && userId) sendBack({ type: signedOut } as Change);
      current = userId;
      sendBack((userId ? { type: signedIn, userId } : { type: signedOut }) as Change);
    };
    report(session.getSnapshot().context.session?.user.id ?? null);
    const sub = session.subscribe((s) => report(s.context.session?.user.id ?? null));
    return () => sub.unsubscribe();
  });
}
