import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import { describeModel } from '../../../../tests/model/harness';
import { type ChatFolderData, type FolderDraft, NO_RULES } from '../../../contract/chat-folders';
import { RequestFailure } from '../../../contract/failure';
import { FOLDER_SAVE_FAILED, FOLDERS_LOAD_FAILED, foldersMachine, movedFolders } from './folders.machine';

const hang = fromPromise(() => new Promise<never>(() => {})) as never;
const silent = fromCallback(() => () => {}) as never;
const folder = (id: string, name = id): ChatFolderData => ({
  id,
  name,
  rules: { ...NO_RULES, groups: true },
  includedIds: [],
  excludedIds: [],
});
const work: FolderDraft = { name: 'Работа', rules: NO_RULES, includedIds: ['g1'], excludedIds: [] };

describeModel({
  name: 'folders',
  machine: foldersMachine.provide({
    actors: {
      serverEvents: silent,
      loadFolders: hang,
      saveFolder: hang,
      deleteFolder: hang,
      orderFolders: hang,
      storeTab: hang,
    },
  }),
  contextKey: (c) =>
    `${c.folders.map((f: ChatFolderData) => f.id).join(',')}|${c.loaded}|${c.active}|${c.editing}|${c.error}`,
  events: {
    'folders.updated': () => [{ type: 'folders.updated', folders: [folder('a'), folder('b')] }],
    'folders.select': () => [{ type: 'folders.select', id: 'a' }],
    'folders.edit': () => [{ type: 'folders.edit', id: null }],
    'folders.save': () => [
      { type: 'folders.save', draft: work },
      { type: 'folders.save', draft: { ...work, name: '   ' } },
    ],
    'folders.delete': () => [{ type: 'folders.delete', id: 'a' }],
    'folders.move': () => [
      { type: 'folders.move', id: 'a', by: 1 },
      { type: 'folders.move', id: 'a', by: -1 },
    ],
    'xstate.done.actor.loadFolders': () => [
      { type: 'xstate.done.actor.loadFolders', output: { folders: [folder('a'), folder('b')], tab: 'b' } },
    ],
    'xstate.error.actor.loadFolders': () => [{ type: 'xstate.error.actor.loadFolders', error: new Error('offline') }],
    'xstate.done.actor.saveFolder': () => [{ type: 'xstate.done.actor.saveFolder', output: folder('c', 'Работа') }],
    'xstate.error.actor.saveFolder': () => [
      {
        type: 'xstate.error.actor.saveFolder',
        error: new RequestFailure(400, 'Название папки — от 1 до 12 символов'),
      },
    ],
    'xstate.done.actor.deleteFolder': () => [{ type: 'xstate.done.actor.deleteFolder', output: 'a' }],
    'xstate.error.actor.deleteFolder': () => [{ type: 'xstate.error.actor.deleteFolder', error: new Error('offline') }],
    'xstate.done.actor.orderFolders': () => [
      { type: 'xstate.done.actor.orderFolders', output: [folder('b'), folder('a')] },
    ],
    'xstate.error.actor.orderFolders': () => [{ type: 'xstate.error.actor.orderFolders', error: new Error('offline') }],
  },
});

function start(opts: { stored?: string | null; failSave?: string; failLoad?: boolean } = {}) {
  let server: ChatFolderData[] = [folder('a', 'Семья'), folder('b', 'Учёба')];
  const stored: (string | null)[] = [];
  const actor = createActor(
    foldersMachine.provide({
      actors: {
        serverEvents: silent,
        loadFolders: fromPromise(async () => {
          if (opts.failLoad) throw new Error('offline');
          return { folders: server, tab: opts.stored ?? null };
        }) as never,
        saveFolder: fromPromise(async ({ input }: { input: { id: string | null; draft: FolderDraft } }) => {
          if (opts.failSave) throw new RequestFailure(400, opts.failSave);
          const saved = { id: input.id ?? 'c', ...input.draft };
          server = input.id ? server.map((f) => (f.id === input.id ? saved : f)) : [...server, saved];
          return saved;
        }) as never,
        deleteFolder: fromPromise(async ({ input }: { input: { id: string } }) => {
          server = server.filter((f) => f.id !== input.id);
          return input.id;
        }) as never,
        orderFolders: fromPromise(async ({ input }: { input: { ids: string[] } }) => {
          server = input.ids.map((id) => server.find((f) => f.id === id) as ChatFolderData);
          return server;
        }) as never,
        storeTab: fromPromise(async ({ input }: { input: { id: string | null } }) => {
          stored.push(input.id);
        }) as never,
      },
    }),
  ).start();
  return { actor, stored, server: () => server };
}
const ready = (s: { value: unknown }) => s.value === 'ready';
const names = (c: { folders: ChatFolderData[] }) => c.folders.map((f) => f.name);

describe('folders with a server', () => {
  it('loads the folders and the tab this device chose, and keeps a new choice on the device', async () => {
    const { actor, stored } = start({ stored: 'b' });
    await waitFor(actor, ready);
    expect(actor.getSnapshot().context).toMatchObject({ loaded: true, active: 'b' });
    expect(names(actor.getSnapshot().context)).toEqual(['Семья', 'Учёба']);
    actor.send({ type: 'folders.select', id: null });
    actor.send({ type: 'folders.select', id: 'a' });
    expect(actor.getSnapshot().context.active).toBe('a');
    await Promise.resolve();
    expect(stored).toEqual([null, 'a']);
  });

  it('creates and edits a folder through the dialog, which closes once saved', async () => {
    const { actor } = start();
    await waitFor(actor, ready);
    actor.send({ type: 'folders.edit', id: null });
    expect(actor.getSnapshot().hasTag('dialog')).toBe(true);
    actor.send({ type: 'folders.save', draft: work });
    await waitFor(actor, ready);
    expect(names(actor.getSnapshot().context)).toEqual(['Семья', 'Учёба', 'Работа']);
    expect(actor.getSnapshot().hasTag('dialog')).toBe(false);
    actor.send({ type: 'folders.edit', id: 'c' });
    actor.send({ type: 'folders.save', draft: { ...work, name: 'Дела' } });
    await waitFor(actor, ready);
    expect(names(actor.getSnapshot().context)).toEqual(['Семья', 'Учёба', 'Дела']);
  });

  it('refuses a draft without a name or without chats and rules before asking, and says why', async () => {
    const { actor } = start();
    await waitFor(actor, ready);
    actor.send({ type: 'folders.edit', id: null });
    actor.send({ type: 'folders.save', draft: { ...work, name: '  ' } });
    expect(actor.getSnapshot().context.error).toBe('Название папки — от 1 до 12 символов');
    actor.send({ type: 'folders.save', draft: { ...work, name: 'Тринадцать бу' } });
    expect(actor.getSnapshot().context.error).toBe('Название папки — от 1 до 12 символов');
    actor.send({ type: 'folders.save', draft: { ...work, includedIds: [] } });
    expect(actor.getSnapshot().context.error).toBe('Выберите чаты или хотя бы одно правило');
    expect(actor.getSnapshot().value).toBe('editing');
    actor.send({ type: 'folders.cancel' });
    expect(actor.getSnapshot().context).toMatchObject({ editing: null, error: null });
  });

  it('keeps the dialog open with the server’s reason when a save fails', async () => {
    const { actor } = start({ failSave: 'Можно создать не больше 10 папок' });
    await waitFor(actor, ready);
    actor.send({ type: 'folders.edit', id: null });
    actor.send({ type: 'folders.save', draft: work });
    await waitFor(actor, (s) => s.value === 'editing' && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe('Можно создать не больше 10 папок');
  });

  it('moves a folder by one place, not past either end, and deletes one', async () => {
    const { actor, server } = start();
    await waitFor(actor, ready);
    actor.send({ type: 'folders.move', id: 'a', by: -1 });
    expect(actor.getSnapshot().value).toBe('ready');
    actor.send({ type: 'folders.move', id: 'a', by: 1 });
    await waitFor(actor, ready);
    expect(names(actor.getSnapshot().context)).toEqual(['Учёба', 'Семья']);
    expect(server().map((f) => f.id)).toEqual(['b', 'a']);
    actor.send({ type: 'folders.delete', id: 'b' });
    await waitFor(actor, ready);
    expect(names(actor.getSnapshot().context)).toEqual(['Семья']);
  });

  it('takes the list another device’s change sent', async () => {
    const { actor } = start();
    await waitFor(actor, ready);
    actor.send({ type: 'folders.updated', folders: [folder('z', 'Работа')] });
    expect(names(actor.getSnapshot().context)).toEqual(['Работа']);
  });

  it('says when the folders could not be loaded', async () => {
    const { actor } = start({ failLoad: true });
    await waitFor(actor, ready);
    expect(actor.getSnapshot().context).toMatchObject({ loaded: false, error: FOLDERS_LOAD_FAILED });
    expect(FOLDER_SAVE_FAILED).toMatch(/[а-я]/);
  });
});

describe('movedFolders', () => {
  it('swaps a folder with its neighbour and leaves the ends alone', () => {
    const list = [folder('a'), folder('b'), folder('c')];
    expect(movedFolders(list, 'b', -1).map((f) => f.id)).toEqual(['b', 'a', 'c']);
    expect(movedFolders(list, 'b', 1).map((f) => f.id)).toEqual(['a', 'c', 'b']);
    expect(movedFolders(list, 'a', -1).map((f) => f.id)).toEqual(['a', 'b', 'c']);
    expect(movedFolders(list, 'x', 1).map((f) => f.id)).toEqual(['a', 'b', 'c']);
  });
});
