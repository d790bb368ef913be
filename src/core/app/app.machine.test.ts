import { describe, expect, it } from 'vitest';
import { createActor, createMachine } from 'xstate';
import { appMachine } from './app.machine';
import { idsOf } from './registry';

// Every child replaced by an inert machine: this checks the spawning alone. The children wired to services
// (sign-in, the socket hand-over) are tested through the composition root in src/core/app/wiring.test.ts.
const inert = createMachine({});
const sessionLong = [
  'session',
  'realtime',
  'connectivity',
  'signOutQueue',
  'offlineStore',
  'notifications',
  'chats',
  'call',
  'navigation',
  'contacts',
  'search',
  'profile',
  'theme',
];
const viewOwned = [
  'callsPage',
  'chatsFooter',
  'conversationSearch',
  'chatsLayout',
  'lightbox',
  'devices',
  'passwordChange',
  'accountDeletion',
  'dataExport',
  'chatActions',
  'groupInvites',
  'joinGroup',
  'blocking',
  'conversationInfo',
  'groupAvatar',
];

function start() {
  const machine = appMachine.provide({
    actors: Object.fromEntries([...sessionLong, ...viewOwned].map((c) => [c, inert])) as never,
  });
  return createActor(machine, { input: {} }).start();
}

describe('app (root actor)', () => {
  it('the registry names the session-long and the view-owned actors', () => {
    expect(idsOf('session')).toEqual(sessionLong);
    expect(idsOf('owned', 'view')).toEqual(viewOwned);
  });

  it('spawns every session-long child under a systemId equal to its name, the same ref as in its context, and nothing else', () => {
    const app = start();
    const context: Record<string, unknown> = { ...app.getSnapshot().context };
    for (const id of sessionLong) {
      expect(app.system.get(id), id).toBeDefined();
      expect(context[id], id).toBe(app.system.get(id));
    }
    expect(Object.keys(context).sort()).toEqual([...sessionLong].sort());
    for (const id of [...viewOwned, 'contactCode', 'avatar', 'groupDialog'])
      expect(app.system.get(id), id).toBeUndefined();
  });

  it('spawns a view-owned actor on actor.open (once) and stops it on actor.close; other ids are refused', () => {
    const app = start();
    app.send({ type: 'actor.open', id: 'callsPage' });
    const page = app.system.get('callsPage');
    expect(page.getSnapshot().status).toBe('active');
    expect(app.getSnapshot().children.callsPage).toBe(page);
    app.send({ type: 'actor.open', id: 'callsPage' });
    expect(app.system.get('callsPage')).toBe(page);
    app.send({ type: 'actor.close', id: 'callsPage' });
    expect(page.getSnapshot().status).toBe('stopped');
    expect(app.system.get('callsPage')).toBeUndefined();
    expect(app.getSnapshot().children.callsPage).toBeUndefined();
    app.send({ type: 'actor.open', id: 'callsPage' });
    expect(app.system.get('callsPage')).not.toBe(page);
    // A session-long actor is not the views' to stop.
    const chats = app.system.get('chats');
    app.send({ type: 'actor.close', id: 'chats' });
    expect(app.system.get('chats')).toBe(chats);
  });
});
