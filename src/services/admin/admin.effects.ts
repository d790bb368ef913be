// The administration feature's effects: requests over the API client of the composition root, and links to the
// clipboard.
import { fromPromise } from 'xstate';
import type { ServerSettings } from '../../contract/administration';
import { toClipboard } from '../app/clipboard';
import type { Services } from '../app/services';
import {
  type AdminRegistrationEffects,
  adminRegistrationMachine,
} from '../../machines/admin/adminRegistration/adminRegistration.machine';
import { type AdminReportsEffects, adminReportsMachine } from '../../machines/admin/adminReports/adminReports.machine';
import type { ReportAction, ReportQueue } from '../../machines/admin/adminReports/adminReports.protocol';
import { type AdminStatsEffects, adminStatsMachine } from '../../machines/admin/adminStats/adminStats.machine';
import { type AdminUsersEffects, adminUsersMachine } from '../../machines/admin/adminUsers/adminUsers.machine';
import type { UserAction } from '../../machines/admin/adminUsers/adminUsers.protocol';

export const wireAdminUsers = (s: Services) =>
  adminUsersMachine.provide({
    actors: {
      loadUsers: fromPromise(({ input }: { input: { q: string; cursor: string | null } }) =>
        s.api.call('adminUsers', {
          query: { ...(input.q ? { q: input.q } : {}), ...(input.cursor ? { cursor: input.cursor } : {}) },
        }),
      ),
      act: fromPromise(async ({ input }: { input: { userId: string; action: UserAction } }) => {
        const body = { userId: input.userId };
        const answer =
          input.action === 'deactivate'
            ? await s.api.call('adminDeactivate', { body })
            : input.action === 'reactivate'
              ? await s.api.call('adminReactivate', { body })
              : input.action === 'endSessions'
                ? await s.api.call('adminEndSessions', { body })
                : input.action === 'resetSecondFactor'
                  ? await s.api.call('adminResetSecondFactor', { body })
                  : await s.api.call('adminRole', {
                      body: { ...body, role: input.action === 'promote' ? 'admin' : 'member' },
                    });
        return answer.user;
      }),
      makeResetLink: fromPromise(({ input }: { input: { userId: string } }) =>
        s.api.call('adminResetLink', { body: { userId: input.userId } }),
      ),
      copyLink: toClipboard((input: { path: string }) => window.location.origin + input.path),
    } satisfies AdminUsersEffects,
  });

export const wireAdminRegistration = (s: Services) =>
  adminRegistrationMachine.provide({
    actors: {
      load: fromPromise(async () => (await s.api.call('adminSettings')).settings),
      saveSettings: fromPromise(
        async ({ input }: { input: Partial<ServerSettings> }) =>
          (await s.api.call('patchAdminSettings', { body: input })).settings,
      ),
    } satisfies AdminRegistrationEffects,
  });

export const wireAdminReports = (s: Services) =>
  adminReportsMachine.provide({
    actors: {
      loadReports: fromPromise(
        async ({ input }: { input: { queue: ReportQueue } }) =>
          (await s.api.call('adminReports', { query: { status: input.queue } })).reports,
      ),
      resolve: fromPromise<unknown, { reportId: string; action: ReportAction }>(({ input }) =>
        s.api.call('resolveReport', { body: input }),
      ),
    } satisfies AdminReportsEffects,
  });

export const wireAdminStats = (s: Services) =>
  adminStatsMachine.provide({
    actors: { loadStats: fromPromise(() => s.api.call('adminStats')) } satisfies AdminStatsEffects,
  });
