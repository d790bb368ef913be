// The page a guest link opens (/g/<code>; owned by its view, alive while the page is shown): no account, a name,
// the camera and microphone check, «Попросить войти», the lobby until the members decide, then the call. Views
// import this module, never guestPage.machine.ts (docs/behaviour.md §10.40).
import type { z } from 'zod';
import type { GuestLinkInfoResponse, GuestTokenResponse } from '../../../contract/guests';
import { CALL_OVER, GUEST, type KnockState } from '../../../contract/guest-rules';
import type { MachineRef } from '../../shared/machine-ref';
import type { CallbackActorLogic, PromiseActorLogic } from 'xstate';

export type GuestLinkInfo = z.output<typeof GuestLinkInfoResponse>;
export type GuestMedia = z.output<typeof GuestTokenResponse>;
/**
 * A secret chat's call (docs/secret-chats.md "Guests in encrypted calls"): the link's secret from the URL fragment
 * and the guest's ephemeral X25519 key pair, kept in this page's memory only.
 */
export interface GuestKnockKeys {
  linkSecret: Uint8Array;
  pair: CryptoKeyPair;
  publicKey: string;
}
export interface GuestKnock {
  knockId: string;
  secret: string;
  /** The link's code (the sealed keys are bound to it). */
  code?: string;
  /** Set at a secret chat's link. */
  keys?: GuestKnockKeys;
}
/** A call key opened from what the admitting member sealed to this guest, with the code both sides compare. */
export interface GuestCallKey {
  epoch: number;
  key: Uint8Array;
  shortCode: string;
}

export const GUEST_TEXTS = {
  loadFailed: 'Не удалось открыть ссылку. Проверьте соединение и попробуйте ещё раз.',
  knockFailed: 'Не удалось попросить войти. Попробуйте ещё раз.',
  nameMissing: 'Представьтесь, чтобы вас узнали',
  nameTooLong: `Имя — не длиннее ${GUEST.nameMax} символов`,
  denied: 'Вас не впустили в звонок',
  removed: 'Вас удалили из звонка',
  gone: 'Ссылка больше не действует',
  left: 'Вы вышли из звонка',
  /** The members left the call: the guest may knock again at the same link for a later one. */
  callOver: CALL_OVER,
  joinFailed: 'Не удалось подключиться к звонку. Попробуйте ещё раз.',
  /** The sealed call key did not open (another link, another key, changed on the way). */
  keyFailed: 'Ключ звонка не открылся: войти в зашифрованный звонок не получилось. Откройте ссылку ещё раз.',
} as const;

/** What is wrong with the name before knocking, or null. */
export function guestNameProblem(name: string): string | null {
  const n = name.trim();
  if (n.length < GUEST.nameMin) return GUEST_TEXTS.nameMissing;
  if (n.length > GUEST.nameMax) return GUEST_TEXTS.nameTooLong;
  return null;
}

export interface GuestPageInput {
  code: string;
  /** The page's URL fragment (`#k=…`: a secret chat's link carries its secret there; the server never sees it). */
  fragment?: string;
}

export interface GuestPageContext {
  code: string;
  /** Who invites, once the server said. */
  info: GuestLinkInfo | null;
  name: string;
  /** Camera and microphone as chosen on the page, published on joining. */
  video: boolean;
  audio: boolean;
  knock: GuestKnock | null;
  fragment: string;
  /** The media token and address once let in. */
  media: GuestMedia | null;
  /** A secret chat's call: the newest call key sealed to this guest, opened; null for a plain call. */
  callKey: GuestCallKey | null;
  /** The form's problem, the server's message, or how it ended. */
  error: string | null;
}

export type GuestPageEvent =
  | { type: 'guest.knock'; name: string; video: boolean; audio: boolean }
  | { type: 'guest.retry' }
  | { type: 'guest.cancel' }
  /** «Попросить войти снова» after the call was over: a new knock with the same name. */
  | { type: 'guest.again' }
  /**
   * The knock's state as the guest's socket heard it; with `admitted` at a secret chat's link, the call key the door
   * opened (`key`), or `keyFailed` when what came did not open.
   */
  | { type: 'guest.state'; state: KnockState; key?: GuestCallKey; keyFailed?: boolean }
  /** A newer epoch's call key, opened by the door (the members re-keyed while this guest is in). */
  | { type: 'guest.key'; key: GuestCallKey }
  /** The call ended on this side (the guest left, or the room closed). */
  | { type: 'guest.left' };

/**
 * busy: a request runs; form: the name and device check; lobby: waiting to be let in; call: in the call; ended: the
 * page is over (refused, removed, a dead link, left or the call over), `error` says which; again: the call is over
 * and «Попросить войти снова» knocks anew.
 */
export const GUEST_TAGS = {
  busy: 'busy',
  form: 'form',
  lobby: 'lobby',
  call: 'call',
  ended: 'ended',
  again: 'again',
} as const;

export type GuestPageRef = MachineRef<GuestPageContext, GuestPageEvent>;

/** The machine's port: the effects it leaves to its feature's services (src/services/guests/guests.effects.ts). */
export interface GuestPageEffects {
  /** GET /api/guest/:code. */
  loadInfo: PromiseActorLogic<GuestLinkInfo, { code: string }>;
  /**
   * POST /api/guest/:code/knock; at a secret chat's link (`encrypted`) with the guest's key and its MAC under the
   * fragment's secret.
   */
  knock: PromiseActorLogic<GuestKnock, { code: string; name: string; encrypted: boolean; fragment: string }>;
  /**
   * The guest's socket (namespace /guest): sends `guest.state` for every state the server tells, and at a secret
   * chat's link opens each sealed call key with the knock's keys (`guest.state` admitted with `key`, `guest.key`).
   */
  door: CallbackActorLogic<GuestPageEvent, GuestKnock>;
  /** POST /api/guest/knocks/:id/token. */
  fetchToken: PromiseActorLogic<GuestMedia, GuestKnock>;
  /** POST /api/guest/knocks/:id/leave. */
  leave: PromiseActorLogic<unknown, GuestKnock>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    /** The guest link's page (spawned while /g/<code> is shown). */
    guestPage: GuestPageRef;
  }
}
