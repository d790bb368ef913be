import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromCallback, fromPromise } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import type { SecretChatEvent, SecretEnvelope } from '../secretChat/secretChat.protocol';
import {
  SECRET_EDIT_FAILED,
  SECRET_REACT_FAILED,
  type SecretDeviceEmitted,
  type SecretDeviceEvent,
  type SecretDeviceStart,
  secretDeviceMachine,
  type BackfillInput,
  type WatchInput,
} from './secretDevice.machine';

const hang = <O, I>() => fromPromise<O, I>(() => new Promise<never>(() => {}));
const inert = fromCallback<{ type: string }, void>(() => undefined);
/** A device already registered, in one secret chat. */
const startWithOneChat = fromPromise<SecretDeviceStart, { userId: string }>(async () => ({
  deviceId: 'd1',
  conversationIds: ['c1'],
  withoutDevice: { c1: ['u2', 'u3'] },
}));
/** Stands in for a secretChat actor: it keeps what it was sent. */
const chatStub = (heard: SecretChatEvent[]) =>
  createMachine({ on: { '*': { actions: ({ event }) => heard.push(event as SecretChatEvent) } } });

describeModel({
  name: 'secretDevice',
  machine: secretDeviceMachine.provide({
    actors: {
      start: hang<SecretDeviceStart, { userId: string }>(),
      serverEvents: inert,
      secretChat: chatStub([]) as never,
      watchChat: fromCallback<SecretDeviceEvent, WatchInput>(() => undefined),
      backfill: fromCallback<SecretDeviceEvent, BackfillInput>(() => undefined),
    },
  }),
  inputs: [{ userId: 'u1' }],
  events: {
    'secretDevice.need': () => [
      { type: 'secretDevice.need', conversationId: 'c1', messageId: 'm1', ciphertext: 'AAAA' },
    ],
    'secretDevice.send': () => [
      {
        type: 'secretDevice.send',
        conversationId: 'c1',
        item: { clientMessageId: 'k1', envelope: { v: 1, kind: 'text', text: 'привет' } },
      },
      {
        type: 'secretDevice.send',
        conversationId: 'c1',
        item: { clientMessageId: 'k1', envelope: { v: 1, kind: 'edit', targetId: 'm1', text: 'пока' } },
      },
    ],
    'secretDevice.log': () => [{ type: 'secretDevice.log', conversationId: 'c1', seq: 2, epoch: 2 }],
    'secretDevice.pending': () => [{ type: 'secretDevice.pending', conversationIds: ['c1'] }],
    'secretDevice.firstDevice': () => [
      { type: 'secretDevice.firstDevice', userId: 'u2', conversationIds: ['c1'] },
      { type: 'secretDevice.firstDevice', userId: 'u3', conversationIds: ['c1'] },
    ],
    'secretDevice.identityChanged': () => [{ type: 'secretDevice.identityChanged', userIds: ['u2'] }],
    'secretDevice.withoutDevice': () => [
      { type: 'secretDevice.withoutDevice', conversationId: 'c1', userIds: ['u2'] },
      { type: 'secretDevice.withoutDevice', conversationId: 'c1', userIds: [] },
    ],
    'secretDevice.sync': () => [{ type: 'secretDevice.sync' }],
    'secretDevice.text': () => [
      { type: 'secretDevice.text', messageId: 'm1', envelope: { v: 1, kind: 'text', text: 'привет' } },
      { type: 'secretDevice.text', messageId: 'm1', envelope: { v: 1, kind: 'delete', targetId: 'm0' } },
    ],
    'secretDevice.unreadable': () => [{ type: 'secretDevice.unreadable', messageId: 'm1' }],
    'secretDevice.forget': () => [
      { type: 'secretDevice.forget', conversationId: 'c1', messageId: 'm1' },
      { type: 'secretDevice.forget', conversationId: 'c9', messageId: 'm1' },
    ],
    'secretDevice.notices': () => [
      {
        type: 'secretDevice.notices',
        conversationId: 'c1',
        notices: [{ epoch: 2, at: '2026-11-25T12:00:00.000Z', userId: 'u2', deviceId: 'd9' }],
      },
    ],
    'secretDevice.sent': () => [{ type: 'secretDevice.sent', clientMessageId: 'k1', messageId: 'm2' }],
    'secretDevice.sendFailed': () => [{ type: 'secretDevice.sendFailed', clientMessageId: 'k1', message: 'Нельзя' }],
    'secretDevice.retry': () => [{ type: 'secretDevice.retry' }],
    'secretDevice.dismissFailure': () => [{ type: 'secretDevice.dismissFailure', conversationId: 'c1' }],
    'xstate.done.actor.start': () => [
      {
        type: 'xstate.done.actor.start',
        output: { deviceId: 'd1', conversationIds: ['c1'], withoutDevice: { c1: ['u2'] } },
      },
    ],
    'xstate.error.actor.start': () => [{ type: 'xstate.error.actor.start', error: new RequestFailure(null, null) }],
  },
  traversal: 'shortest',
});

describe('secretDevice behaviour', () => {
  it('keeps who has no device per chat; their first device drops them and has the chat commit it', async () => {
    const heard: SecretChatEvent[] = [];
    const actor = createActor(
      secretDeviceMachine.provide({
        actors: {
          start: startWithOneChat,
          serverEvents: inert,
          secretChat: chatStub(heard) as never,
          watchChat: fromCallback<SecretDeviceEvent, WatchInput>(() => undefined),
          backfill: fromCallback<SecretDeviceEvent, BackfillInput>(() => undefined),
        },
      }),
      { input: { userId: 'u1' } },
    ).start();
    await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().context.withoutDevice).toEqual({ c1: ['u2', 'u3'] });
    heard.length = 0;
    actor.send({ type: 'secretDevice.firstDevice', userId: 'u2', conversationIds: ['c1'] });
    expect(actor.getSnapshot().context.withoutDevice).toEqual({ c1: ['u3'] });
    expect(heard).toEqual([{ type: 'secretChat.pending' }]);
    actor.send({ type: 'secretDevice.firstDevice', userId: 'u3', conversationIds: ['c1'] });
    expect(actor.getSnapshot().context.withoutDevice).toEqual({});
    // A chat made here: the dialog tells who has none; an empty list clears it.
    actor.send({ type: 'secretDevice.withoutDevice', conversationId: 'c2', userIds: ['u4'] });
    expect(actor.getSnapshot().context.withoutDevice).toEqual({ c2: ['u4'] });
    actor.send({ type: 'secretDevice.withoutDevice', conversationId: 'c2', userIds: [] });
    expect(actor.getSnapshot().context.withoutDevice).toEqual({});
    actor.stop();
  });

  it('runs one actor per secret chat, routes server events and reads to it, and keeps what messages say', async () => {
    const heard: SecretChatEvent[] = [];
    const watched: string[] = [];
    const forgotten: string[] = [];
    const actor = createActor(
      secretDeviceMachine.provide({
        actors: {
          start: startWithOneChat,
          serverEvents: inert,
          secretChat: chatStub(heard) as never,
          watchChat: fromCallback<SecretDeviceEvent, WatchInput>(({ input, receive }) => {
            watched.push(input.conversationId);
            receive((e) => {
              if (e.type === 'secretDevice.forget') forgotten.push(`${input.conversationId}/${e.messageId}`);
            });
          }),
        },
      }),
      { input: { userId: 'u1' } },
    ).start();
    const emitted: SecretDeviceEmitted[] = [];
    actor.on('secretDevice.sent', (e) => emitted.push(e));
    await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().value).toBe('ready');
    expect(actor.getSnapshot().context.conversationIds).toEqual(['c1']);
    actor.send({ type: 'secretDevice.need', conversationId: 'c2', messageId: 'm1', ciphertext: 'AAAA' });
    actor.send({ type: 'secretDevice.need', conversationId: 'c2', messageId: 'm1', ciphertext: 'AAAA' });
    actor.send({ type: 'secretDevice.pending', conversationIds: ['c1'] });
    expect(actor.getSnapshot().context.conversationIds).toEqual(['c1', 'c2']);
    expect(watched).toEqual(['c1', 'c2']);
    expect(heard.map((e) => e.type)).toEqual(['secretChat.log', 'secretChat.received', 'secretChat.pending']);
    expect(actor.getSnapshot().context.texts.m1).toEqual({ status: 'reading' });
    actor.send({
      type: 'secretDevice.text',
      messageId: 'm1',
      envelope: { v: 1, kind: 'text', text: 'да', replyToId: 'm0' },
    });
    expect(actor.getSnapshot().context.texts.m1).toEqual({ status: 'text', text: 'да', replyToId: 'm0' });
    // Edited, with reactions (as the watcher reports a text after applying its edits and reactions).
    actor.send({
      type: 'secretDevice.text',
      messageId: 'm1',
      envelope: { v: 1, kind: 'text', text: 'да!', replyToId: 'm0' },
      edited: '2026-01-01T12:00:00.000Z',
      reactions: [{ emoji: '👍', userIds: ['u2'] }],
    });
    expect(actor.getSnapshot().context.texts.m1).toEqual({
      status: 'text',
      text: 'да!',
      replyToId: 'm0',
      edited: '2026-01-01T12:00:00.000Z',
      reactions: [{ emoji: '👍', userIds: ['u2'] }],
    });
    // Deleted for everyone (message:deleted): gone from the views, and the chat's watcher forgets it; a deletion in
    // a chat that is not a secret one of this device is not its business.
    actor.send({ type: 'secretDevice.forget', conversationId: 'c9', messageId: 'm1' });
    actor.send({ type: 'secretDevice.forget', conversationId: 'c2', messageId: 'm1' });
    expect(actor.getSnapshot().context.texts.m1).toBeUndefined();
    expect(forgotten).toEqual(['c2/m1']);
    const notice = { epoch: 2, at: '2026-11-25T12:00:00.000Z', userId: 'u2', deviceId: 'd9' };
    actor.send({ type: 'secretDevice.notices', conversationId: 'c1', notices: [notice] });
    expect(actor.getSnapshot().context.notices).toEqual({ c1: [notice] });
    actor.send({ type: 'secretDevice.sent', clientMessageId: 'k1', messageId: 'm2' });
    expect(emitted).toEqual([{ type: 'secretDevice.sent', clientMessageId: 'k1', messageId: 'm2' }]);
    actor.stop();
  });

  it('reads what arrived while away once it is ready, and again after each reconnection', async () => {
    const runs: BackfillInput[] = [];
    const heard: SecretChatEvent[] = [];
    const actor = createActor(
      secretDeviceMachine.provide({
        actors: {
          start: startWithOneChat,
          serverEvents: inert,
          secretChat: chatStub(heard) as never,
          watchChat: fromCallback<SecretDeviceEvent, WatchInput>(() => undefined),
          backfill: fromCallback<SecretDeviceEvent, BackfillInput>(({ input, sendBack }) => {
            runs.push(input);
            sendBack({
              type: 'secretDevice.need',
              conversationId: 'c1',
              messageId: `m${runs.length}`,
              ciphertext: 'A',
            });
          }),
        },
      }),
      { input: { userId: 'u1' } },
    ).start();
    await new Promise((r) => setTimeout(r, 0));
    expect(runs).toEqual([{ userId: 'u1', conversationIds: ['c1'] }]);
    expect(actor.getSnapshot().context.texts.m1).toEqual({ status: 'reading' });
    expect(heard.filter((e) => e.type === 'secretChat.received')).toHaveLength(1);
    actor.send({ type: 'secretDevice.sync' });
    await new Promise((r) => setTimeout(r, 0));
    expect(runs).toHaveLength(2);
    expect(actor.getSnapshot().context.texts.m2).toEqual({ status: 'reading' });
    actor.stop();
  });

  it('tells the chat when an edit or a reaction could not be sent, until closed; a text’s failure is the outbox’s', () => {
    const actor = createActor(
      secretDeviceMachine.provide({
        actors: {
          start: hang<SecretDeviceStart, { userId: string }>(),
          serverEvents: inert,
          secretChat: chatStub([]) as never,
          watchChat: fromCallback<SecretDeviceEvent, WatchInput>(() => undefined),
        },
      }),
      { input: { userId: 'u1' } },
    ).start();
    const send = (clientMessageId: string, conversationId: string, envelope: SecretEnvelope) =>
      actor.send({ type: 'secretDevice.send', conversationId, item: { clientMessageId, envelope } });
    const failed = (clientMessageId: string) =>
      actor.send({ type: 'secretDevice.sendFailed', clientMessageId, message: 'Нельзя' });
    const failures = () => actor.getSnapshot().context.actionFailures;

    send('t1', 'c1', { v: 1, kind: 'text', text: 'привет' });
    failed('t1');
    expect(failures()).toEqual({});
    send('e1', 'c1', { v: 1, kind: 'edit', targetId: 'm1', text: 'пока' });
    send('r1', 'c2', { v: 1, kind: 'reaction', targetId: 'm2', emoji: '👍' });
    send('r2', 'c2', { v: 1, kind: 'reaction', targetId: 'm3', emoji: '👍' });
    actor.send({ type: 'secretDevice.sent', clientMessageId: 'r2', messageId: 'm9' });
    failed('r2'); // already sent: nothing to tell
    expect(failures()).toEqual({});
    failed('e1');
    failed('r1');
    expect(failures()).toEqual({ c1: SECRET_EDIT_FAILED, c2: SECRET_REACT_FAILED });
    expect(actor.getSnapshot().context.actions).toEqual({});
    actor.send({ type: 'secretDevice.dismissFailure', conversationId: 'c1' });
    expect(failures()).toEqual({ c2: SECRET_REACT_FAILED });
    actor.stop();
  });
});
