// Who is signed in, as events of the caller's own names: at once, then on every change of the session actor
// (systemId 'session'). Feature actors load their data for a user and drop it when that user signs out; another
// user signing in in the same tab first reports the previous one's sign-out, so nothing of theirs carries over.
import { type EventObject, fromCallback } from 'xstate';
import { systemActor } from '../../shared/system';

export function watchSignedInUser<In extends string, Out extends string>(signedIn: In, signedOut: Out) {
  type Change = { type: In; userId: string } | { type: Out };
  const inEvent = (userId: string): Change => ({ type: signedIn, userId });
  const outEvent: Change = { type: signedOut };
  return fromCallback<EventObject, void, Change>(({ system, sendBack }) => {
    const session = systemActor(system, 'session');
    if (!session) return;
    let current: string | null | undefined;
    const report = (userId: string | null) => {
      if (userId === current) return;
      if (current && userId) sendBack(outEvent);
      current = userId;
      sendBack(userId ? inEvent(userId) : outEvent);
    };
    report(session.getSnapshot().context.session?.user.id ?? null);
    const sub = session.subscribe((s) => report(s.context.session?.user.id ?? null));
    return () => sub.unsubscribe();
  });
}
