// The profile feature's actors provided from the real services: the own record (the avatar editor loads later:
// avatar-wiring.ts).
import { fromPromise } from 'xstate';
import type { BodyOf } from '../../contract/api';
import type { Services } from '../app/services';
import { type ProfileEffects, profileMachine } from '../../machines/profile/profile/profile.machine';

const patchMe = (s: Services) =>
  fromPromise(({ input }: { input: BodyOf<'patchMe'> }) => s.api.call('patchMe', { body: input }));

export function wireProfile(s: Services) {
  return profileMachine.provide({
    actors: { fetchMe: fromPromise(() => s.api.call('me')), patchMe: patchMe(s) } satisfies ProfileEffects,
  });
}
