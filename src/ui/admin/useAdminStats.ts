// «Сервер»: its actor (alive while the tab is shown) as plain values and callbacks.
import { useSelector } from '@xstate/react';
import { useOwnedActor } from '../app/useOwnedActor';

export function useAdminStats() {
  const actor = useOwnedActor('adminStats');
  return {
    stats: useSelector(actor, (s) => s?.context.stats ?? null),
    busy: useSelector(actor, (s) => s?.hasTag('busy') ?? true),
    error: useSelector(actor, (s) => s?.context.error ?? null),
    onReload: () => actor.send({ type: 'stats.reload' }),
  };
}
export type AdminStatsView = ReturnType<typeof useAdminStats>;
