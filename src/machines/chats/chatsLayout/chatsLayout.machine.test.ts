import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { LAYOUT } from '../../../contract/limits';
import { type ChatsLayoutEvent, chatsLayoutMachine } from './chatsLayout.machine';

describeModel({
  name: 'chatsLayout',
  machine: chatsLayoutMachine,
  inputs: [{ hasSelection: false }, { hasSelection: true }],
  events: {
    'layout.selectionChanged': () => [
      { type: 'layout.selectionChanged', hasSelection: true },
      { type: 'layout.selectionChanged', hasSelection: false },
    ],
    // Exactly the threshold each way, one pixel short, and a mostly vertical drag (scrolling, not a swipe).
    'layout.swiped': () => [
      { type: 'layout.swiped', dx: -LAYOUT.swipeMinPx, dy: 0 },
      { type: 'layout.swiped', dx: LAYOUT.swipeMinPx, dy: 10 },
      { type: 'layout.swiped', dx: -(LAYOUT.swipeMinPx - 1), dy: 0 },
      { type: 'layout.swiped', dx: 80, dy: 120 },
    ],
  },
});

function panelAfter(hasSelection: boolean, events: ChatsLayoutEvent[]) {
  const actor = createActor(chatsLayoutMachine, { input: { hasSelection } }).start();
  for (const e of events) actor.send(e);
  return actor.getSnapshot().value;
}

describe('chatsLayout rules', () => {
  it('starts on the conversation when one is already selected, else on the list', () => {
    expect(panelAfter(true, [])).toBe('conversation');
    expect(panelAfter(false, [])).toBe('list');
  });

  it('a left swipe of 50 px opens the selected conversation; 49 px or a vertical drag does not', () => {
    const back = { type: 'layout.back' } as const;
    expect(panelAfter(true, [back, { type: 'layout.swiped', dx: -50, dy: 0 }])).toBe('conversation');
    expect(panelAfter(true, [back, { type: 'layout.swiped', dx: -49, dy: 0 }])).toBe('list');
    expect(panelAfter(true, [back, { type: 'layout.swiped', dx: -60, dy: -70 }])).toBe('list');
  });

  it('a left swipe without a selection stays on the list', () => {
    expect(panelAfter(false, [{ type: 'layout.swiped', dx: -200, dy: 0 }])).toBe('list');
  });

  it('a right swipe of 50 px or the back button returns to the list', () => {
    expect(panelAfter(true, [{ type: 'layout.swiped', dx: 50, dy: 0 }])).toBe('list');
    expect(panelAfter(true, [{ type: 'layout.swiped', dx: 49, dy: 0 }])).toBe('conversation');
    expect(panelAfter(true, [{ type: 'layout.back' }])).toBe('list');
  });

  it('choosing the selected conversation again opens it; losing the selection shows the list', () => {
    expect(panelAfter(true, [{ type: 'layout.back' }, { type: 'layout.open' }])).toBe('conversation');
    expect(panelAfter(false, [{ type: 'layout.open' }])).toBe('list');
    expect(panelAfter(true, [{ type: 'layout.selectionChanged', hasSelection: false }])).toBe('list');
    expect(panelAfter(false, [{ type: 'layout.selectionChanged', hasSelection: true }])).toBe('conversation');
  });
});
