import { describe, expect, it } from 'vitest';
import { type AnyActorRef, createActor, createMachine, fromCallback, fromPromise } from 'xstate';
import { appMachine } from './app.machine';
import { idsOf, lateSessionIds, lazyIds, type RegistryEntry, type RegistryId, registry } from './registry';

// Every child replaced by an inert machine: this checks the spawning alone. The children wired to services
// (sign-in, the socket hand-over) are tested through the composition root in src/machines/app/wiring.test.ts.
const inert = createMachine({});
/** The lines the root runs for the whole session, read from the registry itself. */
const sessionLong = (Object.keys(registry) as RegistryId[]).filter(
  (id) => (registry[id] as RegistryEntry).lifetime === 'session',
);
const viewOwned = [
  'callsPage',
  'callRoom',
  'chatsFooter',
  'quickSwitcher',
  'conversationSearch',
  'dateJump',
  'sendPreview',
  'threadSendPreview',
  'threadMentionPicker',
  'mentionPicker',
  'selection',
  'forwardPicker',
  'messageInfo',
  'editHistory',
  'customStatus',
  'scheduler',
  'chatsLayout',
  'lightbox',
  'devices',
  'passwordChange',
  'accountDeletion',
  'dataExport',
  'twoFactor',
  'passkeys',
  'chatActions',
  'groupInvites',
  'joinGroup',
  'guestPage',
  'guestDoor',
  'guestLinks',
  'blocking',
  'conversationInfo',
  'historySetting',
  'pollComposer',
  'pollVotes',
  'historyImport',
  'directory',
  'memberCard',
  'memberWrite',
  'registrationMode',
  'passwordReset',
  'oidcSignIn',
  'passkeySignIn',
  'signInMethods',
  'reportDialog',
  'reportNotices',
  'adminUsers',
  'adminRegistration',
  'inviteCodes',
  'adminReports',
  'adminStats',
  'secretRegistration',
  'secretDevice',
  'secretDialog',
  'secretCall',
  'secretRecovery',
  'secretVerify',
  'secretApproval',
  'groupAvatar',
  'threadPanel',
  'followedThreads',
  'folders',
  'announcer',
  'chatMedia',
];

/** The root with inert children; a later line's code "arrives" when `arrive()` is called. */
function start() {
  const pending: (() => void)[] = [];
  const lateRunning: string[] = [];
  const lateLinesRunning = fromCallback(() => {
    lateRunning.push('running');
  });
  const loadLine = fromPromise(
    ({ input }: { input: { id: string; input: unknown } }) =>
      new Promise((resolve) => pending.push(() => resolve({ id: input.id, machine: inert, input: input.input }))),
  );
  const machine = appMachine.provide({
    actors: {
      ...Object.fromEntries([...sessionLong, ...viewOwned].map((c) => [c, inert])),
      loadLine,
      lateLinesRunning,
    } as never,
  });
  const app = createActor(machine, { input: {} }).start();
  return Object.assign(app, {
    lateRunning,
    arrive: async () => {
      for (const go of pending.splice(0)) go();
      await new Promise((r) => setTimeout(r, 0));
    },
  });
}

describe('app (root actor)', () => {
  it('the registry names the session-long and the view-owned actors', () => {
    // All of them start, each once, in an order where each finds what it reads at its start.
    const order = idsOf('session');
    expect([...order].sort()).toEqual([...sessionLong].sort());
    expect(sessionLong).toHaveLength(15);
    const at = (id: string) => order.indexOf(id as RegistryId);
    expect(at('session')).toBe(0);
    for (const id of order.filter((x) => x !== 'session' && x !== 'realtime'))
      expect(at('realtime'), id).toBeLessThan(at(id));
    expect(at('chats')).toBeLessThan(at('composer'));
    expect(at('chats')).toBeLessThan(at('navigation'));
    expect([...idsOf('owned', 'view')].sort()).toEqual([...viewOwned].sort());
  });

  it('a machine owning a line whose code loads later declares `loadOwned`, through which it gets that code', () => {
    const owners = new Set(
      (Object.keys(registry) as RegistryId[]).flatMap((id) => {
        const e: RegistryEntry = registry[id];
        return e.lifetime === 'owned' && e.owner !== 'view' && e.load && e.owner ? [e.owner as RegistryId] : [];
      }),
    );
    expect([...owners].sort()).toEqual(['chatsFooter', 'conversationLoader']);
    for (const owner of owners)
      expect((registry[owner] as RegistryEntry).machine?.implementations.actors.loadOwned, owner).toBeDefined();
  });

  it('spawns every session-long child under a systemId equal to its name, the same ref as in its context, and nothing else', async () => {
    const app = start();
    const { early, ...refs } = app.getSnapshot().context;
    const context: Record<string, unknown> = refs;
    const late: string[] = lateSessionIds();
    expect(late).toEqual(['notifications', 'call', 'removal']);
    const eager = sessionLong.filter((id) => !late.includes(id));
    for (const id of eager) {
      expect(app.system.get(id), id).toBeDefined();
      expect(context[id], id).toBe(app.system.get(id));
    }
    expect(Object.keys(context).sort()).toEqual([...eager].sort());
    expect(early).toEqual({});
    // A later one: a stand-in holds its systemId until its code is here, then the actor itself (not in the context).
    const children = () => app.getSnapshot().children as Record<string, AnyActorRef | undefined>;
    for (const id of late) {
      expect(app.system.get(id), id).toBe(children()[`early.${id}`]);
      expect(children()[id], id).toBeUndefined();
    }
    expect(app.lateRunning).toEqual([]);
    await app.arrive();
    for (const id of late) {
      expect(app.system.get(id), id).toBe(children()[id]);
      expect(children()[`early.${id}`], id).toBeUndefined();
    }
    // The realtime connection may open now.
    expect(app.lateRunning).toEqual(['running']);
    for (const id of [...viewOwned, 'contactCode', 'avatar', 'groupDialog'])
      expect(app.system.get(id), id).toBeUndefined();
  });

  it('spawns a view-owned actor on actor.open (once) and stops it on actor.close; other ids are refused', () => {
    const app = start();
    const owned = (id: string) => (app.getSnapshot().children as Record<string, unknown>)[id] as AnyActorRef;
    app.send({ type: 'actor.open', id: 'chatsFooter' });
    // The view's, not the system's: no other actor reaches it by id.
    expect(app.system.get('chatsFooter')).toBeUndefined();
    const footer = owned('chatsFooter');
    expect(footer.getSnapshot().status).toBe('active');
    app.send({ type: 'actor.open', id: 'chatsFooter' });
    expect(owned('chatsFooter')).toBe(footer);
    app.send({ type: 'actor.close', id: 'chatsFooter' });
    expect(footer.getSnapshot().status).toBe('stopped');
    expect(owned('chatsFooter')).toBeUndefined();
    expect(app.getSnapshot().children.chatsFooter).toBeUndefined();
    app.send({ type: 'actor.open', id: 'chatsFooter' });
    expect(owned('chatsFooter')).not.toBe(footer);
    // A session-long actor is not the views' to stop.
    const chats = app.system.get('chats');
    app.send({ type: 'actor.close', id: 'chats' });
    expect(app.system.get('chats')).toBe(chats);
  });

  it('a line whose code comes with its view is spawned once its code is here, and not at all if closed first', async () => {
    expect(lazyIds()).toEqual(expect.arrayContaining(['callsPage', 'devices', 'conversationInfo', 'blocking']));
    const app = start();
    const owned = (id: string) => (app.getSnapshot().children as Record<string, unknown>)[id] as AnyActorRef;
    app.send({ type: 'actor.open', id: 'callsPage', input: { x: 1 } });
    expect(owned('callsPage')).toBeUndefined();
    await app.arrive();
    const page = owned('callsPage');
    expect(page.getSnapshot().status).toBe('active');
    app.send({ type: 'actor.close', id: 'callsPage' });
    expect(owned('callsPage')).toBeUndefined();
    // Opened and closed before the code came: nothing is left running.
    app.send({ type: 'actor.open', id: 'devices' });
    app.send({ type: 'actor.close', id: 'devices' });
    await app.arrive();
    expect(app.system.get('devices')).toBeUndefined();
    expect(Object.keys(app.getSnapshot().children).filter((k) => k.startsWith('load.'))).toEqual([]);
  });
});
