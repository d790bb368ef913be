import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { EVERYONE_CANDIDATE, matchMembers, mentionPickerMachine, mentionQuery, offered } from './mentionPicker.machine';

const boris = { id: 'u2', name: 'Борис', username: 'boris' };
const vera = { id: 'u3', name: 'Вера Борисова', username: 'vera' };
const members = [boris, vera];

describeModel({
  name: 'mentionPicker',
  machine: mentionPickerMachine,
  events: {
    'mention.input': (s) =>
      s.context.dismissed === null
        ? [
            { type: 'mention.input', text: 'Привет @Бор', caret: 11, members },
            { type: 'mention.input', text: 'Привет', caret: 6, members },
          ]
        : [{ type: 'mention.input', text: 'Привет @Бор', caret: 11, members }],
    'mention.choose': () => [{ type: 'mention.choose' }],
  },
});

describe('the «@» list', () => {
  it('finds the «@» before the caret, not in the middle of a word', () => {
    expect(mentionQuery('Привет @Бор', 11)).toEqual({ start: 7, query: 'Бор' });
    expect(mentionQuery('@', 1)).toEqual({ start: 0, query: '' });
    expect(mentionQuery('почта a@b', 9)).toBeNull();
    expect(mentionQuery('Привет @Бор и', 13)).toBeNull();
  });

  it('matches the start of a name, of its words, or of the username, case aside', () => {
    expect(matchMembers(members, 'бор').map((m) => m.id)).toEqual(['u2', 'u3']);
    expect(matchMembers(members, 'vera').map((m) => m.id)).toEqual(['u3']);
    expect(matchMembers(members, 'ора')).toEqual([]);
  });

  it('arrows move, choosing inserts the name in place of the query; Escape closes until the text changes', () => {
    const actor = createActor(mentionPickerMachine).start();
    const inserted: unknown[] = [];
    actor.on('mention.insert', (e) => inserted.push(e));
    actor.send({ type: 'mention.input', text: 'Эй @бор', caret: 7, members });
    expect(actor.getSnapshot().hasTag('open')).toBe(true);
    actor.send({ type: 'mention.next' });
    actor.send({ type: 'mention.next' });
    actor.send({ type: 'mention.prev' });
    actor.send({ type: 'mention.choose' });
    expect(inserted).toEqual([{ type: 'mention.insert', start: 3, end: 7, insert: '@Вера Борисова ' }]);
    actor.send({ type: 'mention.input', text: 'Эй @', caret: 4, members });
    actor.send({ type: 'mention.dismiss' });
    actor.send({ type: 'mention.input', text: 'Эй @', caret: 4, members });
    expect(actor.getSnapshot().hasTag('open')).toBe(false);
    actor.send({ type: 'mention.input', text: 'Эй @Б', caret: 5, members });
    expect(actor.getSnapshot().hasTag('open')).toBe(true);
  });

  it('offers «все» first where the user may call everyone and the letters begin it', () => {
    const ids = (list: { id: string }[]) => list.map((m) => m.id);
    expect(ids(offered(members, '', true))).toEqual(['@все', 'u2', 'u3']);
    expect(ids(offered(members, 'В', true))).toEqual(['@все', 'u3']);
    expect(ids(offered(members, 'вс', true))).toEqual(['@все']);
    expect(ids(offered(members, 'всем', true))).toEqual([]);
    expect(ids(offered(members, 'бор', true))).toEqual(['u2', 'u3']);
    // Not allowed (a big group and a plain member, or a secret chat): only the members.
    expect(ids(offered(members, 'в', false))).toEqual(['u3']);
    expect(ids(offered(members, 'вс'))).toEqual([]);
    // Never more than the list holds.
    const many = Array.from({ length: 12 }, (_, i) => ({ id: `m${i}`, name: `Вася ${i}`, username: `v${i}` }));
    expect(offered(many, 'в', true)).toHaveLength(8);
    expect(offered(many, 'в', true)[0]).toBe(EVERYONE_CANDIDATE);
  });

  it('choosing «все» writes `@все `', () => {
    const actor = createActor(mentionPickerMachine).start();
    const inserted: unknown[] = [];
    actor.on('mention.insert', (e) => inserted.push(e));
    actor.send({ type: 'mention.input', text: 'Всем привет @вс', caret: 15, members, everyone: true });
    expect(actor.getSnapshot().context.candidates).toEqual([EVERYONE_CANDIDATE]);
    actor.send({ type: 'mention.choose' });
    expect(inserted).toEqual([{ type: 'mention.insert', start: 12, end: 15, insert: '@все ' }]);
    // Without the right the same letters find nobody, and the list stays closed.
    actor.send({ type: 'mention.input', text: 'Всем привет @вс', caret: 15, members });
    expect(actor.getSnapshot().hasTag('open')).toBe(false);
  });
});
