import { describe, expect, it } from 'vitest';
import { createActor, createMachine } from 'xstate';
import { appMachine } from './app.machine';

// Every child replaced by an inert machine: this checks the spawning alone. The children wired to services
// (sign-in, the socket hand-over) are tested through the composition root in tests/client/app-wiring.test.ts.
const inert = createMachine({});
const children = ['realtime', 'session', 'connectivity', 'call', 'callsPage', 'contacts', 'contactCode', 'profile', 'avatar', 'groupDialog', 'chatsFooter', 'chats', 'notifications', 'offlineStore', 'search', 'conversationSearch'] as const;

describe('app (root actor)', () => {
  it('spawns every long-lived child under a systemId equal to its name, the same ref as in its context', () => {
    const machine = appMachine.provide({ actors: Object.fromEntries(children.map((c) => [c, inert])) as never });
    const app = createActor(machine, { input: {} }).start();
    const context: Record<string, unknown> = { ...app.getSnapshot().context };
    for (const id of children) {
      expect(app.system.get(id), id).toBeDefined();
      expect(context[id], id).toBe(app.system.get(id));
    }
    expect(Object.keys(context).sort()).toEqual([...children].sort());
  });
});
