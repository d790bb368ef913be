// «Шумоподавление» of a signed-in person's calls, as the session-long call actor keeps it: the choice holds from one
// call to the next until sign-out, and the conference reports whether the microphone goes through the suppressor.
import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { useLateSessionActor } from '../app/useOwnedActor';
import type { NoiseChoice } from './conference-rules';

export function useNoiseSuppression(): NoiseChoice {
  const call = useLateSessionActor('call');
  // Before the actor runs (its code still on its way): a new session's choice, «Шумоподавление» on.
  const on = useSelector(call, (s) => s?.context.noiseSuppression ?? true);
  const running = useSelector(call, (s) => s?.context.noiseRunning ?? false);
  return useMemo(
    () => ({
      on,
      running,
      choose: (choice: boolean) => call.send({ type: 'call.noiseSuppression', on: choice }),
      report: (now: boolean) => call.send({ type: 'call.noiseRunning', running: now }),
    }),
    [call, on, running],
  );
}
