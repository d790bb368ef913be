import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import type { PublicUser } from '../../../contract/entities';
import { RequestFailure } from '../../../contract/failure';
import {
  DIRECTORY_FAILED,
  DIRECTORY_TAGS,
  type DirectoryPage,
  directoryMachine,
  JOIN_FAILED,
} from './directory.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const vera = { id: 'u2', username: 'vera', displayName: 'Вера', eblid: '1234' } as PublicUser;
const club = { id: 'g1', title: 'Клуб', avatarUrl: null, memberCount: 2, member: false };
const page: DirectoryPage = { users: [vera], groups: [club] };
const joined = { conversation: { id: 'g1', participants: [{}, {}, {}] } };

describeModel({
  name: 'directory',
  machine: directoryMachine.provide({ actors: { load: hang, join: hang } }),
  contextKey: (c) =>
    `${c.q}|${c.groups.map((g: { member: boolean }) => (g.member ? 'm' : '-')).join('')}|${c.error ? 'e' : ''}`,
  events: {
    'directory.search': () => [{ type: 'directory.search', q: 'вер' }],
    'directory.join': () => [{ type: 'directory.join', conversationId: 'g1' }],
    'directory.retry': () => [{ type: 'directory.retry' }],
    'xstate.done.actor.firstLoad': () => [
      { type: 'xstate.done.actor.firstLoad', output: page },
      { type: 'xstate.done.actor.firstLoad', output: null },
    ],
    'xstate.error.actor.firstLoad': () => [{ type: 'xstate.error.actor.firstLoad', error: new Error('offline') }],
    'xstate.done.actor.search': () => [
      { type: 'xstate.done.actor.search', output: page },
      { type: 'xstate.done.actor.search', output: null },
    ],
    'xstate.error.actor.search': () => [{ type: 'xstate.error.actor.search', error: new Error('offline') }],
    'xstate.done.actor.join': () => [{ type: 'xstate.done.actor.join', output: joined }],
    'xstate.error.actor.join': () => [
      { type: 'xstate.error.actor.join', error: new RequestFailure(404, 'Открытая группа не найдена') },
    ],
  },
});

function start(load: (q: string) => Promise<DirectoryPage>, join?: () => Promise<unknown>) {
  const asked: string[] = [];
  const actor = createActor(
    directoryMachine.provide({
      actors: {
        load: fromPromise(async ({ input }: { input: { q: string } }) => {
          asked.push(input.q);
          return load(input.q);
        }) as never,
        join: fromPromise(async () => (join ? join() : joined)) as never,
      },
    }),
  ).start();
  const heard: unknown[] = [];
  actor.on('directory.joined', (e) => heard.push(e));
  return { actor, asked, heard };
}

describe('directory with a server', () => {
  it('shows both lists, searches, and joins an open group, marking it as joined', async () => {
    const { actor, asked, heard } = start(async (q) => (q ? { users: [vera], groups: [] } : page));
    await waitFor(actor, (s) => s.hasTag(DIRECTORY_TAGS.shown) && !s.hasTag(DIRECTORY_TAGS.busy));
    actor.send({ type: 'directory.search', q: 'в' });
    actor.send({ type: 'directory.search', q: 'вер' });
    await waitFor(actor, (s) => !s.hasTag(DIRECTORY_TAGS.busy));
    expect(asked).toEqual(['', 'в', 'вер']);
    expect(actor.getSnapshot().context.groups).toEqual([]);
    actor.send({ type: 'directory.search', q: '' });
    await waitFor(actor, (s) => !s.hasTag(DIRECTORY_TAGS.busy));
    actor.send({ type: 'directory.join', conversationId: 'g1' });
    await waitFor(actor, (s) => !s.hasTag(DIRECTORY_TAGS.busy));
    expect(actor.getSnapshot().context.groups[0]).toMatchObject({ member: true, memberCount: 3 });
    expect(heard).toEqual([{ type: 'directory.joined', conversationId: 'g1' }]);
  });

  it('shows nothing while the directory is off', async () => {
    const { actor } = start(async () => null);
    await waitFor(actor, (s) => !s.hasTag(DIRECTORY_TAGS.busy));
    expect(actor.getSnapshot().hasTag(DIRECTORY_TAGS.off)).toBe(true);
    expect(actor.getSnapshot().hasTag(DIRECTORY_TAGS.shown)).toBe(false);
  });

  it("a failed load offers a retry; a refused join shows the server's words and keeps the lists", async () => {
    let fail = true;
    const { actor } = start(
      async () => {
        if (fail) throw new Error('offline');
        return page;
      },
      async () => {
        throw new RequestFailure(404, 'Открытая группа не найдена');
      },
    );
    await waitFor(actor, (s) => s.hasTag(DIRECTORY_TAGS.failed));
    expect(actor.getSnapshot().context.error).toBe(DIRECTORY_FAILED);
    fail = false;
    actor.send({ type: 'directory.retry' });
    await waitFor(actor, (s) => s.hasTag(DIRECTORY_TAGS.shown) && !s.hasTag(DIRECTORY_TAGS.busy));
    expect(actor.getSnapshot().context.error).toBeNull();
    actor.send({ type: 'directory.join', conversationId: 'g1' });
    await waitFor(actor, (s) => !s.hasTag(DIRECTORY_TAGS.busy));
    expect(actor.getSnapshot().context.error).toBe('Открытая группа не найдена');
    expect(actor.getSnapshot().context.groups).toEqual([club]);
    expect(JOIN_FAILED).toMatch(/вступить/);
  });
});
