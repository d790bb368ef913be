import { useSelector } from '@xstate/react';
import { useOwnedActor } from '../app/useOwnedActor';
import type { Device } from '../../machines/account/devices/devices.protocol';

/** «Устройства»: its actor (alive while the section is mounted) as plain values and callbacks. */
export function useDevices() {
  const actor = useOwnedActor('devices');
  const devices = useSelector(actor, (s) => s?.context.devices ?? []) as Device[];
  const busy = useSelector(actor, (s) => s?.hasTag('busy') ?? true);
  const ending = useSelector(actor, (s) => s?.context.ending ?? null);
  const error = useSelector(actor, (s) => s?.context.error ?? null);
  return {
    devices,
    busy,
    ending,
    error,
    onEnd: (id: string) => actor.send({ type: 'devices.end', id }),
    onEndOthers: () => actor.send({ type: 'devices.endOthers' }),
    onReload: () => actor.send({ type: 'devices.reload' }),
  };
}
export type DevicesViewProps = ReturnType<typeof useDevices>;
