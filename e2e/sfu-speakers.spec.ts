// Active speakers: two publishers, one sending a steady tone and one silence; a third participant's
// Room.activeSpeakers (from the SFU's speakersChanged, read from the RFC 6464 audio level) names only the one
// with the tone, and follows when they swap.
import { expect, mediaTest as test } from './fixtures';
import { audioWindow, call } from './sfu-page/callers';

test('activeSpeakers names the participant sending a tone, not the silent one, and follows a swap', async ({
  sfuHarness: h,
  openCaller,
}) => {
  const room = 'speakers';
  const loud = await openCaller(h, 'loud', room, { camera: false, tone: 'on' });
  const quiet = await openCaller(h, 'quiet', room, { camera: false, tone: 'off' });
  const listener = await openCaller(h, 'listener', room, { camera: false, microphone: false });

  await expect.poll(() => call<string[]>(listener, 'speakers'), { timeout: 15_000 }).toEqual(['loud']);
  // Stays so for two seconds of the loud one's audio: the silent one never shows up.
  await audioWindow(h, room, 'loud', 100);
  expect(await call<string[]>(listener, 'speakers')).toEqual(['loud']);

  await call(loud, 'setTone', false);
  await call(quiet, 'setTone', true);
  await expect.poll(() => call<string[]>(listener, 'speakers'), { timeout: 10_000 }).toEqual(['quiet']);
  // The speakers see themselves too (their own isSpeaking).
  await expect.poll(() => call<string[]>(quiet, 'speakers'), { timeout: 10_000 }).toContain('quiet');
});
