// The guests feature's effects: the guest's public requests over the API client and the guest's own socket; the
// members' door. At a secret chat's call (docs/secret-chats.md "Guests in encrypted calls") the guest's page makes its
// key pair and MACs it with the link's secret from the fragment, and opens each sealed call key; the members' door
// derives the link's secret in the crypto worker, checks each guest's key, seals the call key to it on «Впустить»
// and to a guest that asks for it, and seals each newer media key of the call to the guests it checked (a guest who
// leaves or is removed is re-keyed out by the call's own exchange, call-secret.ts). The crypto
// (services/guests/guest-e2ee.ts, @hpke/core) and the crypto worker load only for such a call.
import { type AnyActorRef, type EventObject, fromCallback, fromPromise } from 'xstate';
import type { Ack } from '../../contract/events';
import { RequestFailure } from '../../contract/failure';
import { guestLinkUrl } from '../../contract/guest-rules';
import {
  type DoorDecision,
  type GuestDoorEffects,
  guestDoorMachine,
} from '../../machines/guests/guestDoor/guestDoor.machine';
import type {
  DoorKeysEvent,
  DoorLink,
  GuestCheck,
  GuestDoorEvent,
  GuestDoorRef,
  SecretDoor,
  Vouched,
  Waiting,
} from '../../machines/guests/guestDoor/guestDoor.protocol';
import { type GuestLinksEffects, guestLinksMachine } from '../../machines/guests/guestLinks/guestLinks.machine';
import type { GuestLinksEvent } from '../../machines/guests/guestLinks/guestLinks.protocol';
import { type GuestPageEffects, guestPageMachine } from '../../machines/guests/guestPage/guestPage.machine';
import type { GuestCallKey, GuestKnock, GuestPageEvent } from '../../machines/guests/guestPage/guestPage.protocol';
import { requestServer } from '../../machines/realtime/index';
import { type AnySystem, systemActor } from '../../machines/shared/system';
import { toClipboard } from '../app/clipboard';
import type { Services } from '../app/services';
import { openGuestDoor } from './guest-door';

const guestCrypto = () => import('./guest-e2ee');
/** How long a member's door waits for its call's media key (the call connecting) before saying it has none. */
const CALL_KEY_WAIT_MS = 15_000;
const CALL_KEY_MISSING = 'Ключ звонка ещё не получен: попробуйте ещё раз через несколько секунд';
/** Told to the member as it is (messageOf passes a GuestE2eeError's text on). */
const keyMissing = () => Object.assign(new Error(CALL_KEY_MISSING), { name: 'GuestE2eeError' });
const secretCrypto = () => import('../secretChats/crypto/worker-client').then((m) => m.secretCrypto());

export const wireGuestPage = (s: Services) =>
  guestPageMachine.provide({
    actors: {
      loadInfo: fromPromise(({ input }: { input: { code: string } }) =>
        s.api.call('guestLinkInfo', { params: { code: input.code } }),
      ),
      knock: fromPromise(
        async ({
          input,
        }: {
          input: { code: string; name: string; encrypted: boolean; fragment: string };
        }): Promise<GuestKnock> => {
          if (!input.encrypted) {
            const { knockId, secret } = await s.api.call('guestKnock', {
              params: { code: input.code },
              body: { name: input.name },
            });
            return { knockId, secret };
          }
          const c = await guestCrypto();
          const linkSecret = c.secretFromFragment(input.fragment);
          // Without the fragment's secret the server refuses the knock and says why (the link was cut short).
          if (!linkSecret) {
            await s.api.call('guestKnock', { params: { code: input.code }, body: { name: input.name } });
            throw new RequestFailure(400, c.GUEST_E2EE_TEXTS.badLink);
          }
          const keys = await c.makeGuestKeys();
          const keyMac = await c.knockMac(linkSecret, input.code, keys.publicKey);
          const { knockId, secret } = await s.api.call('guestKnock', {
            params: { code: input.code },
            body: { name: input.name, publicKey: keys.publicKey, keyMac },
          });
          return {
            knockId,
            secret,
            code: input.code,
            keys: { linkSecret, pair: keys.pair, publicKey: keys.publicKey },
          };
        },
      ),
      door: fromCallback<GuestPageEvent, GuestKnock>(({ input, sendBack }) => {
        // States and keys are told in the order heard: opening a key is asynchronous.
        let queue: Promise<void> = Promise.resolve();
        const inOrder = (step: () => Promise<void>) => {
          queue = queue.then(step, step);
        };
        const open = async (sealed: string): Promise<GuestCallKey> => {
          const keys = input.keys;
          if (!keys || !input.code) throw new Error('no keys');
          const c = await guestCrypto();
          const opened = await c.openCallKey({
            linkSecret: keys.linkSecret,
            code: input.code,
            knockId: input.knockId,
            keys,
            sealed,
          });
          return { ...opened, shortCode: await c.shortCode(keys.linkSecret, keys.publicKey, opened.epoch) };
        };
        // Let in while this page held no key (its socket was away at «Впустить»): the door asked for one, and the
        // first that opens lets the page in.
        let keyed = false;
        let admittedKeyless = false;
        return openGuestDoor(
          input,
          (state, sealed) =>
            inOrder(async () => {
              if (state !== 'admitted' || !input.keys) return sendBack({ type: 'guest.state', state });
              if (!sealed) {
                if (!keyed) admittedKeyless = true;
                return;
              }
              const key = await open(sealed).catch(() => null);
              keyed ||= key !== null;
              sendBack(key ? { type: 'guest.state', state, key } : { type: 'guest.state', state, keyFailed: true });
            }),
          undefined,
          (sealed) =>
            inOrder(async () => {
              const key = await open(sealed).catch(() => null);
              if (!key) return;
              keyed = true;
              if (admittedKeyless) {
                admittedKeyless = false;
                return sendBack({ type: 'guest.state', state: 'admitted', key });
              }
              sendBack({ type: 'guest.key', key });
            }),
          input.keys !== undefined,
        );
      }),
      fetchToken: fromPromise(({ input }: { input: GuestKnock }) =>
        s.api.call('guestToken', { params: { id: input.knockId }, body: { secret: input.secret } }),
      ),
      leave: fromPromise<unknown, GuestKnock>(({ input }) =>
        s.api.call('guestLeave', { params: { id: input.knockId }, body: { secret: input.secret } }),
      ),
    } satisfies GuestPageEffects,
  });

/**
 * The door that invoked this effect: what it keeps at a secret chat's call (`DoorKeys`, guestDoor.protocol.ts) is
 * read from its snapshot and changed only by telling it (`door.keys.*`); nothing is kept here.
 */
const doorOf = (self: AnyActorRef) => self._parent as unknown as GuestDoorRef;
const keysOf = (door: GuestDoorRef) => door.getSnapshot().context.keys;
/** Told only while the door runs (an answer may arrive after its call ended). */
const tell = (door: GuestDoorRef, event: DoorKeysEvent) => {
  if (door.getSnapshot().status === 'active') door.send(event);
};

/** The current call key sealed to one guest and sent (`guest:key`); false when the server says it is not in. */
async function sendKey(system: AnySystem, knockId: string, v: Vouched, key: CallKeyOf) {
  const c = await guestCrypto();
  const sealed = await c.sealCallKey({ linkSecret: v.linkSecret, knockId, ...v.e2ee, callKey: key });
  const ack = await requestServer(system, { name: 'guest:key', payload: { knockId, sealed } });
  return ack.ok;
}
type CallKeyOf = { epoch: number; key: Uint8Array };

async function linkSecretOf(door: GuestDoorRef, secret: SecretDoor, code: string, epoch: number) {
  const known = keysOf(door).linkSecrets[code];
  if (known) return known;
  const derived = await (await secretCrypto()).guestLinkSecret(secret.userId, secret.conversationId, code, epoch);
  tell(door, { type: 'door.keys.linkSecret', code, linkSecret: derived });
  return derived;
}

const CHECK_FAILED = 'Не удалось проверить ключ гостя';
const messageOf = (e: unknown, fallback: string) =>
  e instanceof Error && (e.name === 'SecretCryptoError' || e.name === 'GuestE2eeError') ? e.message : fallback;

/** What this device makes of a waiting guest's key: vouched for by the link's secret, and the code to compare. */
async function checkGuest(system: AnySystem, door: GuestDoorRef, secret: SecretDoor, guest: Waiting): Promise<Waiting> {
  const c = await guestCrypto();
  const refused = (problem: string): Waiting => ({ ...guest, check: { verified: false, shortCode: null, problem } });
  if (!guest.e2ee) return refused(c.GUEST_E2EE_TEXTS.badMac);
  try {
    const { code, epoch, publicKey, mac } = guest.e2ee;
    const linkSecret = await linkSecretOf(door, secret, code, epoch);
    if (!(await c.verifyKnock(linkSecret, code, publicKey, mac))) return refused(c.GUEST_E2EE_TEXTS.badMac);
    tell(door, { type: 'door.keys.vouched', knockId: guest.id, vouched: { linkSecret, e2ee: guest.e2ee } });
    const key = await callKeyOf(system, secret);
    const check: GuestCheck = {
      verified: true,
      shortCode: await c.shortCode(linkSecret, publicKey, key.epoch),
      problem: null,
    };
    return { ...guest, check };
  } catch (e) {
    return refused(messageOf(e, CHECK_FAILED));
  }
}

const checkAll = (system: AnySystem, door: GuestDoorRef, secret: SecretDoor | null | undefined, guests: Waiting[]) =>
  secret ? Promise.all(guests.map((g) => checkGuest(system, door, secret, g))) : Promise.resolve(guests);

/**
 * The call's media key as this page's call holds it (the secretCall actor: the group's call key mixed with the secret
 * only the devices in the call hold, docs/secret-chats.md "Who holds the call's key"): what guests get sealed. Waits
 * for it while the call connects.
 */
function callKeyOf(system: AnySystem, secret: SecretDoor): Promise<CallKeyOf> {
  const call = systemActor(system, 'secretCall');
  const keyNow = () => {
    const c = call?.getSnapshot()?.context;
    return c && c.conversationId === secret.conversationId ? c.key : null;
  };
  const now = keyNow();
  if (now) return Promise.resolve(now);
  if (!call) return Promise.reject(keyMissing());
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      sub.unsubscribe();
      reject(keyMissing());
    }, CALL_KEY_WAIT_MS);
    const sub = call.subscribe(() => {
      const key = keyNow();
      if (!key) return;
      clearTimeout(timer);
      sub.unsubscribe();
      resolve(key);
    });
  });
}

/** Seals the call's new media key to each guest this page vouched for that is no longer waiting. */
async function resealAll(system: AnySystem, door: GuestDoorRef, key: CallKeyOf) {
  if (Object.keys(keysOf(door).vouched).length === 0) return;
  for (const [knockId, g] of Object.entries(keysOf(door).vouched)) {
    if (keysOf(door).waitingNow.includes(knockId)) continue;
    if (!(await sendKey(system, knockId, g, key).catch(() => true))) tell(door, { type: 'door.keys.gone', knockId });
  }
}

/**
 * An admitted guest without the current key asked for it (`guest:key-request`): sealed afresh from this page, after
 * checking the guest's key against the link's secret as on «Впустить».
 */
async function answerKeyRequest(
  system: AnySystem,
  door: GuestDoorRef,
  secret: SecretDoor,
  knockId: string,
  e2ee: Vouched['e2ee'],
) {
  const c = await guestCrypto();
  const linkSecret = await linkSecretOf(door, secret, e2ee.code, e2ee.epoch);
  if (!(await c.verifyKnock(linkSecret, e2ee.code, e2ee.publicKey, e2ee.mac))) return;
  const v = { linkSecret, e2ee };
  tell(door, { type: 'door.keys.vouched', knockId, vouched: v });
  await sendKey(system, knockId, v, await callKeyOf(system, secret));
}

export const wireGuestDoor = (s: Services) =>
  guestDoorMachine.provide({
    actors: {
      // `guest:waiting`, each guest's key checked first at a secret chat's call; and there, each newer epoch's key
      // sealed to the guests this page let in.
      serverEvents: fromCallback<EventObject, SecretDoor | null>(({ input: secret, self, system, sendBack }) => {
        const door = doorOf(self);
        const realtime = systemActor(system, 'realtime');
        let latest = 0;
        const subs: { unsubscribe(): void }[] = [];
        if (realtime)
          subs.push(
            realtime.on('server.event', (e) => {
              if (e.name === 'guest:key-request') {
                const r = e.payload as { room: string; knockId: string; e2ee: Vouched['e2ee'] };
                if (secret && r.room === `conv-${secret.conversationId}`)
                  void answerKeyRequest(system, door, secret, r.knockId, r.e2ee).catch(() => undefined);
                return;
              }
              if (e.name !== 'guest:waiting') return;
              const p = e.payload as { room: string; guests: Waiting[]; ring: boolean };
              const n = ++latest;
              // Only this call's own guests are checked against its group (other rooms' lists are ignored anyway).
              const own = secret && p.room === `conv-${secret.conversationId}` ? secret : null;
              if (own) tell(door, { type: 'door.keys.waiting', knockIds: p.guests.map((g) => g.id) });
              void checkAll(system, door, own, p.guests).then((guests) => {
                if (n === latest)
                  sendBack({ type: 'door.waiting', room: p.room, guests, ring: p.ring } satisfies GuestDoorEvent);
              });
            }),
          );
        // Each new media key of the call (a new epoch of the group, or a new secret after someone left) goes to the
        // guests this page let in. The call's key actor runs before the door: the door opens once its call connects.
        const call = secret ? systemActor(system, 'secretCall') : undefined;
        if (secret && call) {
          let seen = call.getSnapshot()?.context.key ?? null;
          subs.push(
            call.subscribe((snap) => {
              const key = snap.context.key;
              if (!key || key === seen) return;
              seen = key;
              void resealAll(system, door, key).catch(() => undefined);
            }),
          );
        }
        return () => {
          for (const sub of subs) sub.unsubscribe();
        };
      }),
      loadWaiting: fromPromise(
        async ({
          input,
          self,
          system,
        }: {
          input: { room: string; secret?: SecretDoor };
          self: AnyActorRef;
          system: AnySystem;
        }) => {
          const door = doorOf(self);
          const { guests } = await s.api.call('waitingGuests', { query: { room: input.room } });
          if (input.secret) tell(door, { type: 'door.keys.waiting', knockIds: guests.map((g) => g.id) });
          return checkAll(system, door, input.secret, guests);
        },
      ),
      createLink: fromPromise(
        async ({
          input,
          self,
        }: {
          input: { room: string; hours: number; secret?: SecretDoor };
          self: AnyActorRef;
        }): Promise<DoorLink> => {
          let made: DoorLink;
          if (!input.secret) {
            made = (await s.api.call('createGuestLink', { body: { room: input.room, hours: input.hours } })).link;
          } else {
            // The link's secret: from the MLS exporter in the group's current epoch, which the link names.
            const worker = await secretCrypto();
            const epoch = await worker.epoch(input.secret.userId, input.secret.conversationId);
            if (epoch === null) throw new RequestFailure(null, 'Это устройство ещё не в группе секретного чата');
            const { link } = await s.api.call('createGuestLink', {
              body: { room: input.room, hours: input.hours, epoch },
            });
            const linkSecret = await worker.guestLinkSecret(
              input.secret.userId,
              input.secret.conversationId,
              link.code,
              epoch,
            );
            tell(doorOf(self), { type: 'door.keys.linkSecret', code: link.code, linkSecret });
            made = { ...link, fragment: (await guestCrypto()).linkFragment(linkSecret) };
          }
          // Copied at once where the browser allows it; the view shows the address either way.
          await navigator.clipboard
            ?.writeText(guestLinkUrl(window.location.origin, made.code) + (made.fragment ?? ''))
            .catch(() => {});
          return made;
        },
      ),
      decide: fromPromise<Ack, DoorDecision>(async ({ input, self, system, signal }) => {
        const door = doorOf(self);
        const e2ee = input.e2ee;
        if (!e2ee) return requestServer(system, input, signal);
        if (input.name === 'guest:admit') {
          const guest = e2ee.guest;
          try {
            const c = await guestCrypto();
            if (!guest?.e2ee) return { ok: false, message: c.GUEST_E2EE_TEXTS.badMac };
            const linkSecret = await linkSecretOf(door, e2ee.secret, guest.e2ee.code, guest.e2ee.epoch);
            const callKey = await callKeyOf(system, e2ee.secret);
            // Refused (GuestE2eeError) unless the link's secret vouches for the key.
            const sealed = await c.sealCallKey({ linkSecret, knockId: guest.id, ...guest.e2ee, callKey });
            const ack = await requestServer(
              system,
              { name: 'guest:admit', payload: { knockId: guest.id, sealed } },
              signal,
            );
            if (ack.ok) {
              const v = { linkSecret, e2ee: guest.e2ee };
              tell(door, { type: 'door.keys.admitted', knockId: guest.id, vouched: v });
              // The group may have moved on while the admission was on its way: that epoch's reseal found the
              // guest still waiting, so the newer key goes now.
              const now = await callKeyOf(system, e2ee.secret);
              if (now !== callKey) await sendKey(system, guest.id, v, now).catch(() => true);
            }
            return ack;
          } catch (e) {
            return { ok: false, message: messageOf(e, CHECK_FAILED) };
          }
        }
        const ack = await requestServer(system, input, signal);
        // Nothing more is sealed to a removed guest; the call's exchange re-keys as its participant leaves the room.
        if (ack.ok && input.name === 'guest:remove')
          tell(door, { type: 'door.keys.gone', knockId: input.payload.knockId });
        return ack;
      }),
    } satisfies GuestDoorEffects,
  });

export const wireGuestLinks = (s: Services) =>
  guestLinksMachine.provide({
    actors: {
      // `guest:links` of this room: someone made or revoked one of its links.
      linkChanges: fromCallback<GuestLinksEvent, { room: string }>(({ input, system, sendBack }) => {
        const sub = systemActor(system, 'realtime')?.on('server.event', (e) => {
          if (e.name === 'guest:links' && (e.payload as { room?: unknown }).room === input.room)
            sendBack({ type: 'links.changed' } satisfies GuestLinksEvent);
        });
        return () => sub?.unsubscribe();
      }),
      loadLinks: fromPromise(({ input }: { input: { room: string } }) =>
        s.api.call('guestLinks', { query: { room: input.room } }),
      ),
      createLink: fromPromise<unknown, { room: string; hours: number }>(({ input }) =>
        s.api.call('createGuestLink', { body: { room: input.room, hours: input.hours } }),
      ),
      revokeLink: fromPromise<unknown, { code: string }>(({ input }) =>
        s.api.call('revokeGuestLink', { body: { code: input.code } }),
      ),
      copyLink: toClipboard((input: { code: string }) => guestLinkUrl(window.location.origin, input.code)),
      saveAdmission: fromPromise(({ input }: { input: { conversationId: string; adminsOnly: boolean } }) =>
        s.api.call('guestAdmission', { body: input }),
      ),
    } satisfies GuestLinksEffects,
  });
