import { describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { RequestFailure } from '../../../contract/failure';
import type { ImportJob, ImportStatus } from '../../../contract/history-import/jobs';
import { ImportFormatError } from '../../../contract/history-import/types';
import { TIMINGS } from '../../../contract/limits';
import {
  type HistoryImportInput,
  historyImportMachine,
  IMPORT_START_FAILED,
  IMPORT_TAGS,
  progressLine,
} from './historyImport.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const idle = fromCallback(() => () => {}) as never;

const chat = (id: string) => ({ id, name: `Чат ${id}`, type: 'private_group', messageCount: 10 });
const job = (status: ImportStatus, chats = 1): ImportJob => ({
  id: 'j1',
  status,
  source: 'telegram',
  chatName: 'Семья',
  chats: Array.from({ length: chats }, (_, i) => chat(String(i + 1))),
  authors: [
    { key: 'user1', name: 'Анна', messageCount: 6, suggestedUserId: 'u1' },
    { key: 'user2', name: 'Ольга', messageCount: 4, suggestedUserId: null },
  ],
  total: 10,
  done: status === 'done' ? 10 : status === 'running' ? 4 : 0,
  conversationId: 'g1',
  ...(status === 'failed' ? { error: 'В архиве нет ни result.json из Telegram, ни файла чата WhatsApp' } : {}),
});
const statuses: ImportStatus[] = ['analysing', 'mapping', 'running', 'done', 'failed', 'cancelled'];
const jobs =
  (type: string, key = 'output') =>
  () => [...statuses.map((st) => ({ type, [key]: job(st) })), { type, [key]: job('mapping', 3) }];
const failure = (type: string) => () => [{ type, error: new RequestFailure(409, 'Импорт уже идёт') }];
const file = new File(['PK'], 'export.zip', { type: 'application/zip' });

const plain: HistoryImportInput = { conversationId: 'g1', secret: false, userId: 'u1', candidates: [] };
const newGroup: HistoryImportInput = { conversationId: null, secret: false, userId: 'u1', candidates: [] };
const secret: HistoryImportInput = { conversationId: 's1', secret: true, userId: 'u1', candidates: [] };

describeModel({
  name: 'historyImport',
  machine: historyImportMachine.provide({
    actors: {
      findJob: hang,
      chooseChat: hang,
      upload: idle,
      fetchJob: hang,
      start: hang,
      cancel: hang,
      analyseLocal: hang,
      secretImport: idle,
    },
  }),
  inputs: [plain, newGroup, secret],
  contextKey: (c) => ({ ...c, file: c.file ? c.file.name : null }),
  events: {
    'xstate.done.actor.findJob': () => [
      { type: 'xstate.done.actor.findJob', output: null },
      { type: 'xstate.done.actor.findJob', output: job('running') },
      { type: 'xstate.done.actor.findJob', output: job('done') },
    ],
    'xstate.error.actor.findJob': failure('xstate.error.actor.findJob'),
    'import.file': () => [{ type: 'import.file', file }],
    'upload.progress': () => [{ type: 'upload.progress', percent: 40 }],
    'upload.done': jobs('upload.done', 'job'),
    'upload.failed': () => [{ type: 'upload.failed', message: 'Файл больше 2048 МБ' }],
    'xstate.done.actor.fetchJob': jobs('xstate.done.actor.fetchJob'),
    'xstate.error.actor.fetchJob': failure('xstate.error.actor.fetchJob'),
    'xstate.done.actor.chooseChat': () => [{ type: 'xstate.done.actor.chooseChat', output: job('analysing', 3) }],
    'xstate.error.actor.chooseChat': failure('xstate.error.actor.chooseChat'),
    'xstate.done.actor.start': () => [{ type: 'xstate.done.actor.start', output: job('running') }],
    'xstate.error.actor.start': failure('xstate.error.actor.start'),
    'xstate.done.actor.cancel': () => [{ type: 'xstate.done.actor.cancel', output: job('cancelled') }],
    'xstate.error.actor.cancel': failure('xstate.error.actor.cancel'),
    'import.chat': () => [{ type: 'import.chat', chatId: '2' }],
    'import.map': () => [{ type: 'import.map', authorKey: 'user2', userId: 'u2' }],
    'import.title': () => [{ type: 'import.title', title: 'Семья (архив)' }],
    'xstate.done.actor.analyseLocal': () => [
      { type: 'xstate.done.actor.analyseLocal', output: { source: 'whatsapp', chats: [chat('0')], total: 5, done: 0 } },
      {
        type: 'xstate.done.actor.analyseLocal',
        output: { source: 'telegram', chats: [chat('1'), chat('2')], total: 9, done: 3 },
      },
    ],
    'xstate.error.actor.analyseLocal': () => [
      { type: 'xstate.error.actor.analyseLocal', error: new ImportFormatError('Это не экспорт истории.') },
      { type: 'xstate.error.actor.analyseLocal', error: new RequestFailure(null, null) },
    ],
    'secretImport.progress': () => [{ type: 'secretImport.progress', done: 50, total: 120 }],
    'secretImport.done': () => [{ type: 'secretImport.done', done: 120, total: 120 }],
    'secretImport.failed': () => [{ type: 'secretImport.failed', message: 'Не удалось прочитать экспорт.' }],
  },
});

describe('historyImport with a server', () => {
  const answers = (list: ImportJob[]) => {
    const asked: string[] = [];
    const actor = createActor(
      historyImportMachine.provide({
        actors: {
          findJob: fromPromise(async () => null) as never,
          upload: fromCallback(({ sendBack }) => {
            sendBack({ type: 'upload.progress', percent: 100 });
            sendBack({ type: 'upload.done', job: job('analysing') });
          }) as never,
          fetchJob: fromPromise(async () => {
            asked.push('fetch');
            return list.shift() ?? job('done');
          }) as never,
          start: fromPromise(async ({ input }: { input: { id: string; body: unknown } }) => {
            asked.push(JSON.stringify(input.body));
            if (list[0]?.status === 'failed') throw new RequestFailure(400, 'Неизвестный участник');
            return job('running');
          }) as never,
          cancel: fromPromise(async () => job('cancelled')) as never,
        },
      }),
      { input: newGroup },
    ).start();
    return { actor, asked };
  };

  it('uploads, asks every tick until analysed, maps with the suggestions and follows the run to the end', async () => {
    vi.useFakeTimers();
    const { actor, asked } = answers([job('analysing'), job('mapping'), job('running'), job('done')]);
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'import.file', file });
    expect(actor.getSnapshot().hasTag(IMPORT_TAGS.analyse)).toBe(true);
    await vi.advanceTimersByTimeAsync(TIMINGS.importPollMs - 1);
    expect(asked).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(asked).toEqual(['fetch']);
    await vi.advanceTimersByTimeAsync(TIMINGS.importPollMs);
    expect(actor.getSnapshot().hasTag(IMPORT_TAGS.map)).toBe(true);
    expect(actor.getSnapshot().context.mapping).toEqual({ user1: 'u1', user2: null });
    expect(actor.getSnapshot().context.title).toBe('Семья');
    actor.send({ type: 'import.map', authorKey: 'user2', userId: 'u1' });
    actor.send({ type: 'import.start' });
    await vi.advanceTimersByTimeAsync(0);
    expect(asked[2]).toBe(JSON.stringify({ mapping: { user1: 'u1', user2: 'u1' }, title: 'Семья' }));
    expect(actor.getSnapshot().hasTag(IMPORT_TAGS.run)).toBe(true);
    await vi.advanceTimersByTimeAsync(TIMINGS.importPollMs * 2);
    expect(actor.getSnapshot().hasTag(IMPORT_TAGS.done)).toBe(true);
    actor.stop();
    vi.useRealTimers();
  });

  it('a refused start stays on the mapping with the server’s words', async () => {
    vi.useFakeTimers();
    const { actor } = answers([job('mapping'), job('failed')]);
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'import.file', file });
    await vi.advanceTimersByTimeAsync(TIMINGS.importPollMs);
    actor.send({ type: 'import.start' });
    await vi.advanceTimersByTimeAsync(0);
    expect(actor.getSnapshot().hasTag(IMPORT_TAGS.map)).toBe(true);
    expect(actor.getSnapshot().context.error).toBe('Неизвестный участник');
    expect(actor.getSnapshot().context.error).not.toBe(IMPORT_START_FAILED);
    actor.stop();
    vi.useRealTimers();
  });

  it('a secret chat reopened after a reload offers the file again from where its import stopped', async () => {
    const kept = { ...job('running'), conversationId: 's1', total: 200, done: 100 };
    const actor = createActor(
      historyImportMachine.provide({
        actors: {
          // The server's job of this chat's secret import, running (the server never runs it itself).
          findJob: fromPromise(async () => kept) as never,
          analyseLocal: fromPromise(async () => ({
            source: 'whatsapp',
            chats: [chat('0')],
            total: 200,
            done: 100,
          })) as never,
          secretImport: idle,
        },
      }),
      { input: secret },
    ).start();
    await vi.waitFor(() => expect(actor.getSnapshot().hasTag(IMPORT_TAGS.choose)).toBe(true));
    expect(actor.getSnapshot().context).toMatchObject({ done: 100, total: 200 });
    actor.send({ type: 'import.file', file });
    // The progress starts from the kept position, not from zero.
    await vi.waitFor(() => expect(actor.getSnapshot().hasTag(IMPORT_TAGS.run)).toBe(true));
    expect(actor.getSnapshot().context).toMatchObject({ done: 100, total: 200 });
    actor.send({ type: 'secretImport.done', done: 200, total: 200 });
    expect(actor.getSnapshot().hasTag(IMPORT_TAGS.done)).toBe(true);
    actor.stop();
  });

  it('says the progress the Russian way', () => {
    expect(progressLine(4200, 12345).replace(/\s/g, ' ')).toBe('Импорт: 4 200 из 12 345');
  });
});
