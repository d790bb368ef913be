import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import { type InvitePreview, JOIN_FAILED, joinGroupMachine, PREVIEW_FAILED } from './joinGroup.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const preview: InvitePreview = { conversationId: 'g1', title: 'Клуб', avatarUrl: null, memberCount: 3, member: false };
const gone = new RequestFailure(410, 'Ссылка-приглашение больше не действует');

describeModel({
  name: 'joinGroup',
  machine: joinGroupMachine.provide({ actors: { loadPreview: hang, join: hang } }),
  inputs: [{ code: 'k1' }],
  events: {
    'join.confirm': () => [{ type: 'join.confirm' }],
    'join.retry': () => [{ type: 'join.retry' }],
    'xstate.done.actor.loadPreview': () => [{ type: 'xstate.done.actor.loadPreview', output: preview }],
    'xstate.error.actor.loadPreview': () => [
      { type: 'xstate.error.actor.loadPreview', error: gone },
      { type: 'xstate.error.actor.loadPreview', error: new RequestFailure(null, null) },
    ],
    'xstate.done.actor.join': () => [{ type: 'xstate.done.actor.join', output: { conversationId: 'g1' } }],
    'xstate.error.actor.join': () => [
      { type: 'xstate.error.actor.join', error: gone },
      { type: 'xstate.error.actor.join', error: new RequestFailure(500, null) },
    ],
  },
});

function start(answers: { preview?: InvitePreview | Error; join?: Error }) {
  const heard: unknown[] = [];
  const chats = createMachine({ on: { '*': { actions: ({ event }) => heard.push(event) } } });
  const root = createActor(
    createMachine({
      invoke: [
        { id: 'chats', src: chats, systemId: 'chats' },
        {
          id: 'joinGroup',
          systemId: 'joinGroup',
          input: { code: 'k1' },
          src: joinGroupMachine.provide({
            actors: {
              loadPreview: fromPromise(async () => {
                if (answers.preview instanceof Error) throw answers.preview;
                return answers.preview ?? preview;
              }) as never,
              join: fromPromise(async () => {
                if (answers.join) throw answers.join;
                return { conversationId: 'g1' };
              }) as never,
            },
          }),
        },
      ],
    }),
  ).start();
  return { actor: root.system.get('joinGroup'), heard };
}

describe('joinGroup with a server', () => {
  it('shows the group, joins and opens it in the chats', async () => {
    const { actor, heard } = start({});
    await waitFor(actor, (s: { value: unknown }) => s.value === 'ready');
    expect(actor.getSnapshot().context.preview).toEqual(preview);
    actor.send({ type: 'join.confirm' });
    await waitFor(actor, (s: { status: string }) => s.status === 'done');
    expect(heard).toEqual([{ type: 'chats.open', conversationId: 'g1' }]);
  });

  it('a dead link says so for good; another failure offers a retry', async () => {
    const dead = start({ preview: gone });
    await waitFor(dead.actor, (s: { hasTag(t: string): boolean }) => s.hasTag('gone'));
    expect(dead.actor.getSnapshot().context.error).toBe('Ссылка-приглашение больше не действует');
    const flaky = start({ preview: new RequestFailure(null, null) });
    await waitFor(flaky.actor, (s: { value: unknown }) => s.value === 'failed');
    expect(flaky.actor.getSnapshot().context.error).toBe(PREVIEW_FAILED);
    const refused = start({ join: new RequestFailure(500, null) });
    await waitFor(refused.actor, (s: { value: unknown }) => s.value === 'ready');
    refused.actor.send({ type: 'join.confirm' });
    await waitFor(refused.actor, (s: { context: { error: string | null } }) => s.context.error !== null);
    expect(refused.actor.getSnapshot().context.error).toBe(JOIN_FAILED);
  });
});
