// The avatar editor's protocol (registry line 'avatar'): the events it accepts from the crop view. Views import this
// module, never avatar.machine.ts.
import type { MachineRef } from '../../shared/machine-ref';
import type { PromiseActorLogic } from 'xstate';

export const ZOOM_MIN = 0.5;
export const ZOOM_MAX = 2;
export const ZOOM_STEP = 0.01;
export const NOT_AN_IMAGE = 'Можно выбрать только изображение';
export const AVATAR_FAILED = 'Не удалось загрузить аватар';

export interface Point {
  x: number;
  y: number;
}
export interface PixelArea extends Point {
  width: number;
  height: number;
}

/** A group's picture instead of the profile's (the same editor in the group's «Информация»). */
export interface AvatarInput {
  conversationId?: string;
}

export interface AvatarContext {
  /** The group whose picture this is; null for one's own profile picture. */
  conversationId: string | null;
  /** The chosen image as a URL the crop view can show (a data: URL). */
  source: string | null;
  crop: Point;
  zoom: number;
  /** The square under the round window, in the image's pixels (reported by the crop view). */
  area: PixelArea | null;
  /** The cropped image on its way to the server. */
  cropped: Blob | null;
  /** Where the server keeps the uploaded image, until the profile is saved with it. */
  uploadedUrl: string | null;
  error: string | null;
}

export type AvatarEvent =
  | { type: 'avatar.selected'; file: Blob & { type: string } }
  | { type: 'avatar.moved'; crop: Point }
  | { type: 'avatar.zoomed'; zoom: number }
  | { type: 'avatar.areaChanged'; area: PixelArea }
  | { type: 'avatar.upload' }
  | { type: 'avatar.cancel' };

export type AvatarRef = MachineRef<AvatarContext, AvatarEvent>;

/**
 * The machine's port: the effects it leaves to its feature's services (src/services/profile/profile-avatar.effects.ts).
 */
export interface AvatarEffects {
  /** The file as a data: URL. */
  readImage: PromiseActorLogic<string, { file: Blob }>;
  /** The area of the image as an image file. */
  cropImage: PromiseActorLogic<Blob, { source: string; area: PixelArea }>;
  /** POST /api/upload. */
  uploadImage: PromiseActorLogic<{ url: string }, { file: Blob }>;
  /** PATCH /status/me {avatarUrl}, or PATCH /conversations/:id {avatarUrl} for a group's picture. */
  saveAvatar: PromiseActorLogic<unknown, { avatarUrl: string; conversationId: string | null }>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    /** A group's picture editor (spawned while «Изменить фото» is open in «Информация»). */
    groupAvatar: AvatarRef;
  }
}
