// The «Статус» dialog provided from the real services. A module of its own: it loads when the dialog is first opened,
// not with the first bundle.
import { fromPromise } from 'xstate';
import {
  type CustomStatusEffects,
  customStatusMachine,
  type StatusChoice,
} from '../../machines/profile/customStatus/customStatus.machine';
import type { Services } from '../app/services';

export function wireCustomStatus(s: Services) {
  return customStatusMachine.provide({
    actors: {
      saveStatus: fromPromise(async ({ input }: { input: StatusChoice }) => {
        // «Сегодня» ends at this browser's midnight.
        const body = { ...input, timezoneOffset: new Date().getTimezoneOffset() };
        return (await s.api.call('setCustomStatus', { body })).user;
      }),
      clearStatus: fromPromise(async () => (await s.api.call('clearCustomStatus')).user),
    } satisfies CustomStatusEffects,
  });
}
