// «Устройства» in Settings (systemId 'devices', alive while the section is shown): the user's sign-ins, ending one
// or all the others. Views import this module, never devices.machine.ts.
import type { z } from 'zod';
import type { SignIn } from '../../../contract/api';
import type { MachineRef } from '../../shared/machine-ref';
import type { PromiseActorLogic } from 'xstate';

export type Device = z.output<typeof SignIn>;

export const DEVICES_FAILED = 'Не удалось загрузить список устройств';
export const END_FAILED = 'Не удалось завершить сеанс';

export interface DevicesContext {
  devices: Device[];
  /** The sign-in being ended, or 'others' for «Завершить все другие». */
  ending: string | null;
  error: string | null;
}

export type DevicesEvent =
  | { type: 'devices.reload' }
  | { type: 'devices.end'; id: string }
  | { type: 'devices.endOthers' };

export type DevicesRef = MachineRef<DevicesContext, DevicesEvent>;

/** The machine's port: the effects it leaves to its feature's services (src/services/account/account.effects.ts). */
export interface DevicesEffects {
  /** GET /api/auth/sessions. */
  loadDevices: PromiseActorLogic<Device[], unknown>;
  /** DELETE /api/auth/sessions/:id, or POST /api/auth/sessions/end-others for 'others'. */
  endDevice: PromiseActorLogic<unknown, { id: string | 'others' }>;
}

declare module '../../shared/system' {
  interface SystemActors {
    /** «Устройства» (spawned while the settings section is shown). */
    devices: DevicesRef;
  }
}
