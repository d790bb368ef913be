// «Сервер» in «Администрирование» (registry line 'adminStats', alive while the tab is shown): the server's figures from
// GET /api/admin/stats. Views import this module, never adminStats.machine.ts.
import type { z } from 'zod';
import type { AdminStatsResponse } from '../../../contract/administration';
import type { MachineRef } from '../../shared/machine-ref';

export type AdminStats = z.output<typeof AdminStatsResponse>;

export const STATS_FAILED = 'Не удалось загрузить сведения о сервере';

export interface AdminStatsContext {
  stats: AdminStats | null;
  error: string | null;
}

export type AdminStatsEvent = { type: 'stats.reload' };

export type AdminStatsRef = MachineRef<AdminStatsContext, AdminStatsEvent>;

declare module '../../shared/system' {
  interface OwnedActors {
    /** «Сервер» (spawned while the tab is shown). */
    adminStats: AdminStatsRef;
  }
}
