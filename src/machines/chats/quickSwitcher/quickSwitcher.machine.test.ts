import { describe, expect, it } from 'vitest';
import { createActor, createMachine } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import {
  type QuickSwitcherEvent,
  type QuickSwitcherInput,
  quickSwitcherMachine,
  quickSwitcherView,
  switcherMatches,
} from './quickSwitcher.machine';

const chats = [
  { id: 'c1', name: 'Борис Петров' },
  { id: 'c2', name: 'Семья' },
  { id: 'c3', name: 'Пётр' },
  { id: 'c4', name: 'Избранное' },
];

describeModel({
  name: 'quickSwitcher',
  machine: quickSwitcherMachine,
  // Several chats, one chat alone (↑/↓ do nothing), none at all (Enter does nothing).
  inputs: [{ chats }, { chats: [chats[1]] }, { chats: [] }] satisfies QuickSwitcherInput[],
  contextKey: (c) => ({ query: c.query, index: c.index }),
  events: {
    // A query that matches several, one that matches none; a click on the second row.
    'switcher.query': (s) => (s.context.query === '' ? [{ type: 'switcher.query', query: 'пет' }] : []),
    'switcher.choose': () => [{ type: 'switcher.choose' }, { type: 'switcher.choose', index: 1 }],
  },
});

function run(input: QuickSwitcherInput, events: QuickSwitcherEvent[]) {
  const opened: string[] = [];
  // The chats actor as the switcher reaches it: by its systemId in the same system.
  const chatsStub = createMachine({
    on: {
      'chats.open': {
        actions: ({ event }) => opened.push((event as unknown as { conversationId: string }).conversationId),
      },
    },
  });
  const root = createActor(
    createMachine({
      invoke: [
        { src: chatsStub, systemId: 'chats' },
        { src: quickSwitcherMachine, id: 'switcher', input },
      ],
    }),
  ).start();
  const switcher = root.getSnapshot().children.switcher as ReturnType<typeof createActor<typeof quickSwitcherMachine>>;
  for (const event of events) switcher.send(event);
  return { snapshot: switcher.getSnapshot(), opened };
}

describe('quick switcher rules', () => {
  it('filters by name whatever the case and «ё», those starting with the query first', () => {
    expect(switcherMatches({ chats, query: 'пет' }).map((c) => c.id)).toEqual(['c1', 'c3']);
    expect(switcherMatches({ chats, query: ' ПЁТР ' }).map((c) => c.id)).toEqual(['c1', 'c3']);
    expect(switcherMatches({ chats, query: 'с' }).map((c) => c.id)).toEqual(['c2', 'c1']);
    expect(switcherMatches({ chats, query: '' }).map((c) => c.id)).toEqual(['c1', 'c2', 'c3', 'c4']);
    expect(switcherMatches({ chats, query: 'xyz' })).toEqual([]);
  });

  it('moves the highlight with wrapping and opens the highlighted chat on Enter', () => {
    const up = run({ chats }, [{ type: 'switcher.previous' }]);
    expect(quickSwitcherView(up.snapshot.context).active?.id).toBe('c4');
    const { snapshot, opened } = run({ chats }, [
      { type: 'switcher.query', query: 'пет' },
      { type: 'switcher.next' },
      { type: 'switcher.choose' },
    ]);
    expect(opened).toEqual(['c3']);
    expect(snapshot.context.chosen).toBe('c3');
    expect(snapshot.status).toBe('done');
    expect(snapshot.value).toBe('chosen');
  });

  it('a new query puts the highlight back on the first match', () => {
    const { snapshot } = run({ chats }, [
      { type: 'switcher.next' },
      { type: 'switcher.next' },
      { type: 'switcher.query', query: 'с' },
    ]);
    expect(quickSwitcherView(snapshot.context)).toMatchObject({ index: 0, active: { id: 'c2' } });
  });

  it('opens a clicked row; Enter with no match or a row out of range opens nothing', () => {
    expect(run({ chats }, [{ type: 'switcher.choose', index: 2 }]).opened).toEqual(['c3']);
    const none = run({ chats }, [
      { type: 'switcher.query', query: 'xyz' },
      { type: 'switcher.choose' },
      { type: 'switcher.choose', index: 9 },
    ]);
    expect(none.opened).toEqual([]);
    expect(none.snapshot.status).toBe('active');
  });

  it('Escape ends it with nothing opened', () => {
    const { snapshot, opened } = run({ chats }, [{ type: 'switcher.close' }]);
    expect(snapshot.value).toBe('closed');
    expect(opened).toEqual([]);
  });
});
