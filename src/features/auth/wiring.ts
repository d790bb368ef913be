// The auth feature's effects: the registration screen asks who may register (no bearer token needed).
import { fromPromise } from 'xstate';
import type { Services } from '../../core/app/services';
import { registrationModeMachine } from './machines/registrationMode/registrationMode.machine';

export const wireRegistrationMode = (s: Services) =>
  registrationModeMachine.provide({
    actors: { loadMode: fromPromise(async () => (await s.api.call('registrationInfo')).mode) },
  });
