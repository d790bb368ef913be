import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import type { PublicUser } from '../../../contract/entities';
import { RequestFailure } from '../../../contract/failure';
import { CARD_TAGS, memberCardMachine, relationOf } from './memberCard.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const vera: PublicUser = {
  id: 'u2',
  username: 'vera',
  displayName: 'Вера',
  avatarUrl: null,
  status: 'ONLINE',
  lastSeenAt: null,
  eblid: '1234',
  bio: null,
};
const refusal = 'Пользователь принимает сообщения только от друзей';
type Snap = { context: { relation: string | null } };

describeModel({
  name: 'memberCard',
  machine: memberCardMachine.provide({ actors: { loadRelation: hang, openDirect: hang, addContact: hang } }),
  inputs: [{ user: vera }, { user: vera, write: true }],
  contextKey: (c) => `${c.write}|${c.relation}|${c.error ? 'e' : ''}`,
  events: {
    'card.write': () => [{ type: 'card.write' }],
    'card.befriend': (s) => ((s as Snap).context.relation === 'none' ? [{ type: 'card.befriend' }] : []),
    'card.dismiss': () => [{ type: 'card.dismiss' }],
    'card.close': () => [{ type: 'card.close' }],
    'xstate.done.actor.0.memberCard.loading': () => [
      { type: 'xstate.done.actor.0.memberCard.loading', output: 'none' },
    ],
    'xstate.error.actor.0.memberCard.loading': () => [
      { type: 'xstate.error.actor.0.memberCard.loading', error: new Error('offline') },
    ],
    'xstate.done.actor.0.memberCard.openingChat': () => [
      { type: 'xstate.done.actor.0.memberCard.openingChat', output: { conversation: { id: 'c9' } } },
    ],
    'xstate.error.actor.0.memberCard.openingChat': () => [
      { type: 'xstate.error.actor.0.memberCard.openingChat', error: new RequestFailure(403, refusal) },
    ],
    'xstate.done.actor.0.memberCard.requestingFriendship': () => [
      {
        type: 'xstate.done.actor.0.memberCard.requestingFriendship',
        output: { contact: { id: 'k1', status: 'PENDING', direction: 'outgoing', friend: vera } },
      },
    ],
    'xstate.error.actor.0.memberCard.requestingFriendship': () => [
      { type: 'xstate.error.actor.0.memberCard.requestingFriendship', error: new RequestFailure(429, 'Слишком часто') },
    ],
  },
});

function start(opts: { write?: boolean; refuse?: boolean; relation?: 'friend' | 'none' } = {}) {
  const calls: unknown[] = [];
  const actor = createActor(
    memberCardMachine.provide({
      actors: {
        loadRelation: fromPromise(async () => opts.relation ?? 'none') as never,
        openDirect: fromPromise(async ({ input }) => {
          calls.push(['openDirect', input]);
          if (opts.refuse) throw new RequestFailure(403, refusal);
          return { conversation: { id: 'c9' } };
        }) as never,
        addContact: fromPromise(async ({ input }) => {
          calls.push(['addContact', input]);
          return { contact: { id: 'k1', status: 'PENDING', direction: 'outgoing', friend: vera } };
        }) as never,
      },
    }),
    { input: { user: vera, write: opts.write } },
  ).start();
  return { actor, calls };
}

describe('memberCard with a server', () => {
  it('reads the relation, asks for friendship by EBLID, then opens the chat and is done', async () => {
    const { actor, calls } = start();
    expect(actor.getSnapshot().hasTag(CARD_TAGS.loading)).toBe(true);
    await waitFor(actor, (s) => s.value === 'shown');
    actor.send({ type: 'card.befriend' });
    await waitFor(actor, (s) => s.value === 'shown' && s.context.relation === 'outgoing');
    actor.send({ type: 'card.befriend' }); // pending already: nothing
    actor.send({ type: 'card.write' });
    await waitFor(actor, (s) => s.hasTag(CARD_TAGS.done));
    expect(calls).toEqual([
      ['addContact', { identifier: '1234' }],
      ['openDirect', { userId: 'u2' }],
    ]);
  });

  it('«Написать» before the relation has loaded still asks for the chat, and shows a refusal', async () => {
    const { actor, calls } = start({ refuse: true });
    expect(actor.getSnapshot().hasTag(CARD_TAGS.loading)).toBe(true);
    actor.send({ type: 'card.write' });
    await waitFor(actor, (s) => s.hasTag(CARD_TAGS.failed));
    expect(actor.getSnapshot().context.error).toBe(refusal);
    expect(calls).toEqual([['openDirect', { userId: 'u2' }]]);
  });

  it('keeps the refusal in the server words, and a row’s «Написать» opens at once', async () => {
    const { actor, calls } = start({ write: true, refuse: true });
    await waitFor(actor, (s) => s.hasTag(CARD_TAGS.failed));
    expect(actor.getSnapshot().context.error).toBe(refusal);
    expect(calls).toEqual([['openDirect', { userId: 'u2' }]]);
    actor.send({ type: 'card.close' });
    expect(actor.getSnapshot().hasTag(CARD_TAGS.done)).toBe(true);
  });

  it('tells friends, requests and strangers apart', () => {
    expect(relationOf(undefined)).toBe('none');
    expect(relationOf({ status: 'ACCEPTED', direction: 'incoming' })).toBe('friend');
    expect(relationOf({ status: 'PENDING', direction: 'incoming' })).toBe('incoming');
    expect(relationOf({ status: 'PENDING', direction: 'outgoing' })).toBe('outgoing');
  });
});
