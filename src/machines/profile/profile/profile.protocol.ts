// The profile actor's protocol (systemId 'profile'): the events it accepts (the settings page's save, the avatar
// editor's refetch, server events). Peers and views import this module, never profile.machine.ts.
import type { PresenceStatus, User } from '../../../contract/entities';
import type { MessagePrivacy } from '../../../contract/message-privacy';
import type { MachineRef } from '../../shared/machine-ref';
import type { BodyOf, ResponseOf } from '../../../contract/api';
import type { PromiseActorLogic } from 'xstate';

export const SAVE_FAILED = 'Не удалось сохранить';

export interface ProfileContext {
  userId: string | null;
  me: User | null;
  saveError: string | null;
}

export interface ProfileFields {
  displayName: string;
  status: PresenceStatus;
  bio: string;
  /** «Кто может мне писать» (Settings; the profile dialog leaves it as it is). */
  messagePrivacy?: MessagePrivacy;
}

export type ProfileEvent =
  | { type: 'profile.signedIn'; userId: string }
  | { type: 'profile.signedOut' }
  /** Fetch the own record again (the avatar editor after a new avatar, or a profile:update about oneself). */
  | { type: 'profile.refetch' }
  | { type: 'profile.changed'; userId: string }
  | { type: 'profile.save'; fields: ProfileFields };

export type ProfileRef = MachineRef<ProfileContext, ProfileEvent>;

/** The machine's port: the effects it leaves to its feature's services (src/services/profile/profile.effects.ts). */
export interface ProfileEffects {
  fetchMe: PromiseActorLogic<ResponseOf<'me'>, unknown>;
  patchMe: PromiseActorLogic<ResponseOf<'patchMe'>, BodyOf<'patchMe'>>;
}

// Its entry in the typed map from systemId to actor (src/machines/shared/system.ts).
declare module '../../shared/system' {
  interface SystemActors {
    profile: ProfileRef;
  }
}
