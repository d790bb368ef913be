// The account feature's effects: its actors' requests over the API client of the composition root.
import { fromPromise } from 'xstate';
import type { Services } from '../app/services';
import type { DataExport } from '../../machines/account/dataExport/dataExport.protocol';
import {
  type AccountDeletionEffects,
  accountDeletionMachine,
} from '../../machines/account/accountDeletion/accountDeletion.machine';
import { type DataExportEffects, dataExportMachine } from '../../machines/account/dataExport/dataExport.machine';
import { type DevicesEffects, devicesMachine } from '../../machines/account/devices/devices.machine';
import {
  type PasswordChangeEffects,
  passwordMachine,
} from '../../machines/account/passwordChange/passwordChange.machine';
import { type TwoFactorEffects, twoFactorMachine } from '../../machines/account/twoFactor/twoFactor.machine';
import { type PasskeysEffects, passkeysMachine } from '../../machines/account/passkeys/passkeys.machine';
import {
  type SignInMethodsEffects,
  signInMethodsMachine,
} from '../../machines/account/signInMethods/signInMethods.machine';

export const wireDevices = (s: Services) =>
  devicesMachine.provide({
    actors: {
      loadDevices: fromPromise(async () => (await s.api.call('sessions')).sessions),
      endDevice: fromPromise<unknown, { id: string }>(({ input }) =>
        input.id === 'others' ? s.api.call('endOtherSessions') : s.api.call('endSession', { params: { id: input.id } }),
      ),
    } satisfies DevicesEffects,
  });

export const wirePassword = (s: Services) =>
  passwordMachine.provide({
    actors: {
      changePassword: fromPromise<unknown, { currentPassword: string; newPassword: string }>(({ input }) =>
        s.api.call('changePassword', { body: input }),
      ),
    } satisfies PasswordChangeEffects,
  });

export const wireAccountDeletion = (s: Services) =>
  accountDeletionMachine.provide({
    actors: {
      deleteAccount: fromPromise<unknown, { password: string }>(({ input }) =>
        s.api.call('deleteAccount', { body: input }),
      ),
    } satisfies AccountDeletionEffects,
  });

export const wireDataExport = (s: Services) =>
  dataExportMachine.provide({
    actors: {
      loadLatest: fromPromise(async () => (await s.api.call('latestExport')).export),
      startExport: fromPromise(async () => (await s.api.call('startExport')).export),
      loadStatus: fromPromise<DataExport, { id: string }>(
        async ({ input }) => (await s.api.call('exportStatus', { params: { id: input.id } })).export,
      ),
    } satisfies DataExportEffects,
  });

export const wireTwoFactor = (s: Services) =>
  twoFactorMachine.provide({
    actors: {
      loadStatus: fromPromise(() => s.api.call('twoFactor')),
      begin: fromPromise<{ secret: string; uri: string }, { password?: string }>(({ input }) =>
        s.api.call('twoFactorBegin', { body: input }),
      ),
      confirm: fromPromise<{ recoveryCodes: string[] }, { code: string }>(({ input }) =>
        s.api.call('twoFactorConfirm', { body: input }),
      ),
      disable: fromPromise<unknown, { password: string }>(({ input }) =>
        s.api.call('twoFactorDisable', { body: input }),
      ),
      regenerate: fromPromise<{ recoveryCodes: string[] }, { password: string }>(({ input }) =>
        s.api.call('recoveryCodes', { body: input }),
      ),
    } satisfies TwoFactorEffects,
  });

export const wirePasskeys = (s: Services) =>
  passkeysMachine.provide({
    actors: {
      loadPasskeys: fromPromise(async () => (await s.api.call('passkeys')).passkeys),
      addPasskey: fromPromise(({ input }: { input: { name: string; password: string } }) => s.passkeys.add(input)),
      renamePasskey: fromPromise<unknown, { id: string; name: string }>(({ input }) =>
        s.api.call('passkeyRename', { params: { id: input.id }, body: { name: input.name } }),
      ),
      removePasskey: fromPromise<unknown, { id: string; password: string }>(({ input }) =>
        s.api.call('passkeyRemove', { params: { id: input.id }, body: { password: input.password } }),
      ),
    } satisfies PasskeysEffects,
  });

// «Способы входа»: the ways the user can sign in (password, passkeys, the organisation's sign-in).
export const wireSignInMethods = (s: Services) =>
  signInMethodsMachine.provide({
    actors: { loadMethods: fromPromise(() => s.api.call('signInMethods')) } satisfies SignInMethodsEffects,
  });
