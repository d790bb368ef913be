// «Сервер» in «Администрирование» (registry line 'adminStats', alive while the tab is shown): the server's figures from
// GET /api/admin/stats. Views import this module, never adminStats.machine.ts.
import type { z } from 'zod';
import type { AdminStatsResponse } from '../../../contract/administration';
import type { MachineRef } from '../../shared/machine-ref';
import type { PromiseActorLogic } from 'xstate';

export type AdminStats = z.output<typeof AdminStatsResponse>;

export const STATS_FAILED = 'Не удалось загрузить сведения о сервере';

export interface AdminStatsContext {
  stats: AdminStats | null;
  error: string | null;
}

export type AdminStatsEvent = { type: 'stats.reload' };

export type AdminStatsRef = MachineRef<AdminStatsContext, AdminStatsEvent>;

/** The machine's port: the effects it leaves to its feature's services (src/services/admin/admin.effects.ts). */
export interface AdminStatsEffects {
  /** GET /api/admin/stats. */
  loadStats: PromiseActorLogic<AdminStats, unknown>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    /** «Сервер» (spawned while the tab is shown). */
    adminStats: AdminStatsRef;
  }
}
