import { useSelector } from '@xstate/react';
import { useOwnedActor } from '../app/useOwnedActor';
import type { DataExport } from '../../machines/account/dataExport/dataExport.protocol';

/** «Экспорт данных»: its actor (alive while the section is mounted) as plain values and callbacks. */
export function useDataExport() {
  const actor = useOwnedActor('dataExport');
  const current = useSelector(actor, (s) => s?.context.current ?? null) as DataExport | null;
  const busy = useSelector(actor, (s) => s?.hasTag('busy') ?? true);
  const building = useSelector(actor, (s) => s?.hasTag('building') ?? false);
  const error = useSelector(actor, (s) => s?.context.error ?? null);
  return {
    current,
    busy,
    building,
    error,
    onStart: () => actor.send({ type: 'export.start' }),
  };
}
export type DataExportViewProps = ReturnType<typeof useDataExport>;
