// The app's sounds with their code loaded after the chat list's first paint (src/services/app/sound.ts is not in
// the first bundle). A ring asked for before the code is here starts when it arrives, and a load that failed (offline, a new release) is tried again
// on the next call, sounds staying silent meanwhile as they do when audio is blocked. A click made before the code
// arrived unlocks it when it does (the page keeps its user activation).
import type { SoundService } from './sound';
import { UNLOCK_EVENTS } from './unlock-events';

type Loop = 'ring' | 'ringback';

/** `target` hears a gesture made before the code arrived (window by default), so it unlocks once it does. */
export function soundLater(
  load: () => Promise<SoundService>,
  target: EventTarget | null = typeof window === 'undefined' ? null : window,
): SoundService {
  let real: SoundService | null = null;
  let loading = false;
  let disposed = false;
  let gestured = false;
  const wanted = new Set<Loop>();
  const onGesture = () => {
    gestured = true;
    stopListening();
    ensure();
  };
  const stopListening = () => {
    for (const type of UNLOCK_EVENTS) target?.removeEventListener(type, onGesture, true);
  };
  for (const type of UNLOCK_EVENTS) target?.addEventListener(type, onGesture, true);

  function ensure() {
    if (real || loading || disposed) return;
    loading = true;
    load().then(
      (s) => {
        loading = false;
        if (disposed) return s.dispose();
        real = s;
        stopListening();
        if (gestured) s.unlock();
        if (wanted.has('ring')) s.startRing();
        if (wanted.has('ringback')) s.startRingback();
      },
      () => {
        loading = false;
      },
    );
  }
  ensure();

  const start = (loop: Loop) => {
    wanted.add(loop);
    if (!real) return ensure();
    if (loop === 'ring') real.startRing();
    else real.startRingback();
  };
  const stop = (loop: Loop) => {
    wanted.delete(loop);
    if (!real) return ensure();
    if (loop === 'ring') real.stopRing();
    else real.stopRingback();
  };

  return {
    get unlocked() {
      return real?.unlocked ?? false;
    },
    notify() {
      // Before the unlock a notification makes no sound anyway (sound.ts), and the unlock needs the code.
      if (real) real.notify();
      else ensure();
    },
    startRing: () => start('ring'),
    stopRing: () => stop('ring'),
    startRingback: () => start('ringback'),
    stopRingback: () => stop('ringback'),
    unlock() {
      if (real) real.unlock();
      else onGesture();
    },
    dispose() {
      disposed = true;
      stopListening();
      wanted.clear();
      real?.dispose();
    },
  };
}
