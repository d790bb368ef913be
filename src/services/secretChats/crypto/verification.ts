// What «Проверить шифрование» shows and what a «новое устройство» notice says, from a group's MLS state
// (docs/secret-chats.md, "Verification"): pure functions over the engine, run in the crypto worker.
import type { ClientState } from 'ts-mls/clientState.js';
import { epochOf, type Fingerprint, fingerprint, members } from './mls-engine';

/** One member's devices in the group's current tree. */
export interface MemberDevices {
  userId: string;
  deviceIds: string[];
}

export interface Verification {
  fingerprint: Fingerprint;
  epoch: number;
  /** By user id, each user's device ids sorted. */
  members: MemberDevices[];
  /** This device's id (the dialog marks it «это устройство»). */
  ownDeviceId: string | null;
}

export function membersOf(state: ClientState): MemberDevices[] {
  const byUser = new Map<string, string[]>();
  for (const m of members(state))
    byUser.set(m.identity.userId, [...(byUser.get(m.identity.userId) ?? []), m.identity.deviceId]);
  return [...byUser.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([userId, deviceIds]) => ({ userId, deviceIds: deviceIds.sort() }));
}

export async function verificationOf(state: ClientState, ownDeviceId: string | null): Promise<Verification> {
  return { fingerprint: await fingerprint(state), epoch: epochOf(state), members: membersOf(state), ownDeviceId };
}

/** A device added by a commit for a member who already had one in the group (kept in the sealed store). */
export interface DeviceNotice {
  /** The epoch the commit started: unique per commit of a group. */
  epoch: number;
  /** When the commit was logged (ISO): the notice's place in the chat. */
  at: string;
  userId: string;
  deviceId: string;
  /**
   * A device refused (crypto/identity.ts): not signed by its person's identity key known here, of someone not in
   * the chat, or a second leaf of one identity — «Неподтверждённое устройство не добавлено: <Имя>».
   */
  refused?: true;
  /** The person's first device in the chat (a member added with no device, now joining): «первое устройство». */
  first?: true;
}

/**
 * The devices `after` has that `before` did not, of members who had a device in `before`. A member's first device
 * (a member just added, or the group's creation) is no news: they are seen in the members list.
 */
export function newDevicesOf(before: ClientState, after: ClientState, at: string): DeviceNotice[] {
  const had = new Set(members(before).map((m) => m.identity.deviceId));
  const users = new Set(members(before).map((m) => m.identity.userId));
  // Every added device gets a line; a person who had none in the group before gets «первое устройство».
  return members(after)
    .filter((m) => !had.has(m.identity.deviceId))
    .map((m) => ({
      epoch: epochOf(after),
      at,
      userId: m.identity.userId,
      deviceId: m.identity.deviceId,
      ...(users.has(m.identity.userId) ? {} : { first: true as const }),
    }));
}
