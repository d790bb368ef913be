// This browser as a device of secret chats while the chats page is open (docs/secret-chats.md "Reaching
// everyone"). A person with a secret chat gets the device actor at once (SecretDeviceOwner). Anyone else, once the
// browser has had an idle moment after the list painted (at most 2 s later), gets only the background registration
// (secretRegistration: the crypto worker registers, then a light listener), so that every signed-in browser is a
// device friends can reach without its registration competing with the first screen; the device actor and the
// approval holder come only when the registration hands over to them.
import { Suspense, useEffect, useState } from 'react';
import { lazyView } from '../shared/lazy-view';
import { useSecretRegistration } from './useSecretRegistration';

const LazyOwner = lazyView<{ userId: string }>(() => import('./SecretDeviceOwner').then((m) => m.SecretDeviceOwner));

export function SecretDevice(props: { userId: string; now: boolean }) {
  const idle = useIdle();
  if (props.now) return <Owner userId={props.userId} />;
  return idle ? <Registration userId={props.userId} /> : null;
}

function Owner(props: { userId: string }) {
  return (
    <Suspense fallback={null}>
      <LazyOwner userId={props.userId} />
    </Suspense>
  );
}

function Registration(props: { userId: string }) {
  const { device } = useSecretRegistration(props.userId);
  return device ? <Owner userId={props.userId} /> : null;
}

/** An idle period this long means nothing else is queued (Chrome gives at most 50 ms). */
const QUIET_MS = 40;
/** The longest wait for one, from the list's paint. */
const IDLE_WAIT_MS = 2_000;

/**
 * True once the browser has had a quiet idle moment — an idle period with nothing else queued, not a gap between the
 * first screen's own tasks (the offline store's writes, the lazy views) — or 2 s passed.
 */
function useIdle(): boolean {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (idle) return;
    if (typeof requestIdleCallback === 'function') {
      const until = performance.now() + IDLE_WAIT_MS;
      let handle = 0;
      const wait = () => {
        handle = requestIdleCallback(
          (deadline) => {
            if (deadline.didTimeout || deadline.timeRemaining() >= QUIET_MS || performance.now() >= until)
              setIdle(true);
            else wait();
          },
          { timeout: Math.max(0, until - performance.now()) },
        );
      };
      wait();
      return () => cancelIdleCallback(handle);
    }
    const timer = setTimeout(() => setIdle(true), 500);
    return () => clearTimeout(timer);
  }, [idle]);
  return idle;
}
