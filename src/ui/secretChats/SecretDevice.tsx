// Holds this browser's device actor (systemId 'secretDevice') while the chats page is open: at once when the list
// has a secret chat, else once the browser has had an idle moment after the list painted (at most 2 s later), so
// that every signed-in browser is a device friends can reach without its registration ever competing with the first
// screen. Its code and the crypto worker load then. Renders only the approval of a new device (SecretApproval).
import { useEffect, useState } from 'react';
import { useOwnedActor } from '../app/useOwnedActor';
import { SecretApproval } from './SecretApproval';

export function SecretDevice(props: { userId: string; now: boolean }) {
  const idle = useIdle();
  return props.now || idle ? <Owner userId={props.userId} /> : null;
}

function Owner(props: { userId: string }) {
  useOwnedActor('secretDevice', { userId: props.userId });
  // A new device of this person may ask for the identity key, or this one may be waiting for that.
  return <SecretApproval userId={props.userId} />;
}

/** True once the browser has had an idle moment (or 2 s passed). */
function useIdle(): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (idle) return;
    if (typeof requestIdleCallback === 'function') {
      const handle = requestIdleCallback(() => setIdle(true), { timeout: 2_000 });
      return () => cancelIdleCallback(handle);
    }
    const timer = setTimeout(() => setIdle(true), 500);
    return () => clearTimeout(timer);
  }, [idle]);
  return idle;
}
