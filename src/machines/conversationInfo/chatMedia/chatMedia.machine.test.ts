import { describe, expect, it } from 'vitest';
import { createActor, createMachine, fromPromise } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import {
  CHAT_MEDIA_FAILED,
  CHAT_MEDIA_TAGS,
  type ChatMediaContext,
  type ChatMediaEntry,
  type ChatMediaPage,
  type ChatMediaRequest,
  chatMediaMachine,
} from './chatMedia.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const entry = (id: string): ChatMediaEntry => ({
  messageId: id,
  createdAt: '2026-05-01T10:00:00.000Z',
  senderId: 'u1',
  pictures: [{ url: `/uploads/${id}.png` }],
  files: [],
  links: [],
  text: '',
  durationMs: null,
});
const input = { conversationId: 'c1', userId: 'u1', secret: false };

describeModel({
  name: 'chatMedia',
  machine: chatMediaMachine.provide({ actors: { loadPage: hang } }),
  inputs: [input],
  contextKey: (c) =>
    `${c.tab}|${Object.entries(c.tabs as ChatMediaContext['tabs'])
      .filter(([, t]) => t.loaded)
      .map(([k, t]) => `${k}${t.nextBefore ? '+' : ''}`)
      .join(',')}|${c.error ? 'e' : ''}`,
  events: {
    'chatMedia.tab': (s) => [
      { type: 'chatMedia.tab', kind: s.context.tab },
      { type: 'chatMedia.tab', kind: s.context.tab === 'media' ? 'files' : 'media' },
    ],
    'chatMedia.more': () => [{ type: 'chatMedia.more' }],
    'chatMedia.retry': () => [{ type: 'chatMedia.retry' }],
    'chatMedia.jump': () => [{ type: 'chatMedia.jump', messageId: 'm1' }],
    'xstate.done.actor.loadPage': () => [
      { type: 'xstate.done.actor.loadPage', output: { entries: [entry('m2')], nextBefore: 'm2' } },
      { type: 'xstate.done.actor.loadPage', output: { entries: [entry('m1')], nextBefore: null } },
    ],
    'xstate.error.actor.loadPage': () => [
      { type: 'xstate.error.actor.loadPage', error: new RequestFailure(404, 'Беседа не найдена') },
    ],
  },
});

function start(pages: (r: ChatMediaRequest) => Promise<ChatMediaPage>) {
  const asked: ChatMediaRequest[] = [];
  const opened: unknown[] = [];
  const chats = createMachine({ on: { '*': { actions: ({ event }) => opened.push(event) } } });
  const machine = chatMediaMachine.provide({
    actors: {
      loadPage: fromPromise<ChatMediaPage, ChatMediaRequest>(({ input: r }) => {
        asked.push(r);
        return pages(r);
      }),
    },
  });
  const root = createActor(
    createMachine({
      invoke: [
        { id: 'chats', src: chats, systemId: 'chats' },
        { id: 'chatMedia', src: machine, systemId: 'chatMedia', input },
      ],
    }),
  ).start();
  const actor = root.system.get('chatMedia') as ReturnType<typeof createActor<typeof chatMediaMachine>>;
  return { actor, asked, opened };
}
const settle = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

describe('chatMedia with its pages', () => {
  it('loads the shown tab newest first, then the next page when scrolled to the end, until the last', async () => {
    const { actor, asked } = start(async (r) =>
      r.before === null
        ? { entries: [entry('m3'), entry('m2')], nextBefore: 'm2' }
        : { entries: [entry('m1')], nextBefore: null },
    );
    expect(actor.getSnapshot().hasTag(CHAT_MEDIA_TAGS.loading)).toBe(true);
    await settle();
    actor.send({ type: 'chatMedia.more' });
    expect(actor.getSnapshot().hasTag(CHAT_MEDIA_TAGS.loadingMore)).toBe(true);
    await settle();
    expect(actor.getSnapshot().context.tabs.media.entries.map((e) => e.messageId)).toEqual(['m3', 'm2', 'm1']);
    actor.send({ type: 'chatMedia.more' });
    expect(actor.getSnapshot().value).toBe('loaded');
    expect(asked.map((r) => [r.kind, r.before])).toEqual([
      ['media', null],
      ['media', 'm2'],
    ]);
  });

  it('loads each tab once: a tab shown again is as it was', async () => {
    const { actor, asked } = start(async (r) => ({ entries: [entry(`${r.kind}-1`)], nextBefore: null }));
    await settle();
    actor.send({ type: 'chatMedia.tab', kind: 'links' });
    await settle();
    actor.send({ type: 'chatMedia.tab', kind: 'media' });
    expect(actor.getSnapshot().value).toBe('loaded');
    expect(actor.getSnapshot().context.tab).toBe('media');
    expect(asked.map((r) => r.kind)).toEqual(['media', 'links']);
    expect(actor.getSnapshot().context.tabs.links.entries[0]?.messageId).toBe('links-1');
  });

  it('says what went wrong; «Повторить» asks again, keeping the pages it has', async () => {
    let fail = true;
    const { actor, asked } = start(async (r) => {
      if (fail) throw new Error('сеть');
      return r.before ? { entries: [entry('m1')], nextBefore: null } : { entries: [entry('m2')], nextBefore: 'm2' };
    });
    await settle();
    expect(actor.getSnapshot().hasTag(CHAT_MEDIA_TAGS.failed)).toBe(true);
    expect(actor.getSnapshot().context.error).toBe(CHAT_MEDIA_FAILED);
    fail = false;
    actor.send({ type: 'chatMedia.retry' });
    expect(actor.getSnapshot().context.error).toBeNull();
    await settle();
    fail = true;
    actor.send({ type: 'chatMedia.more' });
    await settle();
    expect(actor.getSnapshot().hasTag(CHAT_MEDIA_TAGS.failed)).toBe(true);
    expect(actor.getSnapshot().context.tabs.media.entries).toHaveLength(1);
    fail = false;
    actor.send({ type: 'chatMedia.retry' });
    await settle();
    expect(actor.getSnapshot().context.tabs.media.entries.map((e) => e.messageId)).toEqual(['m2', 'm1']);
    expect(asked.map((r) => r.before)).toEqual([null, null, 'm2', 'm2']);
  });

  it('jumps to a message as a search result does, and says so', async () => {
    const { actor, opened } = start(async () => ({ entries: [], nextBefore: null }));
    const jumped: unknown[] = [];
    actor.on('chatMedia.jumped', (e) => jumped.push(e));
    actor.send({ type: 'chatMedia.jump', messageId: 'm9' });
    expect(opened).toEqual([{ type: 'chats.open', conversationId: 'c1', messageId: 'm9' }]);
    expect(jumped).toEqual([{ type: 'chatMedia.jumped', messageId: 'm9' }]);
  });
});
