// This browser as a device of secret chats while the chats page is open (docs/secret-chats.md "Reaching
// everyone"). A person with a secret chat gets the device actor at once (SecretDeviceOwner). Anyone else, once the
// first screen has settled — the realtime connection up and its catch-up done, then an idle moment — gets only the
// background registration
// (secretRegistration: the crypto worker registers, then a light listener), so that every signed-in browser is a
// device friends can reach without its registration competing with the first screen; the device actor and the
// approval holder come only when the registration hands over to them.
import { useSelector } from '@xstate/react';
import { Suspense, useEffect, useState } from 'react';
import { useRealtimeRef } from '../app/RuntimeContext';
import { lazyView } from '../shared/lazy-view';
import { useSecretRegistration } from './useSecretRegistration';

const LazyOwner = lazyView<{ userId: string }>(() => import('./SecretDeviceOwner').then((m) => m.SecretDeviceOwner));

export function SecretDevice(props: { userId: string; now: boolean }) {
  const live = useSelector(useRealtimeRef(), (s) => s.hasTag('live'));
  const idle = useIdle(live);
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
/** The longest wait for one, from the moment the first screen has settled. */
const IDLE_WAIT_MS = 2_000;
/**
 * The realtime connection's first catch-up (the lists, threads and deletions fetched again on connect, and their
 * renders) takes this long at most on a phone; the registration waits for it rather than competing with it.
 */
const CATCH_UP_MS = 1_000;
/** Without a realtime connection (sockets blocked, the server restarting) the registration goes ahead after this. */
const LIVE_WAIT_MS = 10_000;

/**
 * True once the first screen has settled — the realtime connection up for a second (or 10 s without one) — and the
 * browser has then had a quiet idle moment: an idle period with nothing else queued, not a gap between the first
 * screen's own tasks (the offline store's writes, the lazy views, the catch-up's answers) — or 2 s passed.
 */
function useIdle(live: boolean): boolean {
  const [settled, setSettled] = useState(false);
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (settled) return;
    const timer = setTimeout(() => setSettled(true), live ? CATCH_UP_MS : LIVE_WAIT_MS);
    return () => clearTimeout(timer);
  }, [live, settled]);
  useEffect(() => {
    if (idle || !settled) return;
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
  }, [idle, settled]);
  return idle;
}
