// The app's sounds with their code loaded after the chat list's first paint (src/services/app/sound.ts is not in
// the first bundle). Nothing can be clicked before the list paints, so the gesture unlock loses nothing; a ring asked
// for before the code is here starts when it arrives, and a load that failed (offline, a new release) is tried again
// on the next call, sounds staying silent meanwhile as they do when audio is blocked.
import type { SoundService } from './sound';

type Loop = 'ring' | 'ringback';

export function soundLater(load: () => Promise<SoundService>): SoundService {
  let real: SoundService | null = null;
  let loading = false;
  let disposed = false;
  const wanted = new Set<Loop>();

  function ensure() {
    if (real || loading || disposed) return;
    loading = true;
    load().then(
      (s) => {
        loading = false;
        if (disposed) return s.dispose();
        real = s;
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
    dispose() {
      disposed = true;
      wanted.clear();
      real?.dispose();
    },
  };
}
