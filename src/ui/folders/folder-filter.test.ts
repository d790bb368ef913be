import { describe, expect, it } from 'vitest';
import { type ChatFolderData, type FolderRules, NO_RULES } from '../../contract/chat-folders';
import { type FolderChat, folderChats, inFolder, unreadChats } from './folder-filter';

const chats: FolderChat[] = [
  { id: 'saved', unread: 0, saved: true },
  { id: 'anna', unread: 2 },
  { id: 'boris', unread: 0, muted: true },
  { id: 'vera', unread: 0, markedUnread: true },
  { id: 'work', unread: 5, isGroup: true },
  { id: 'dacha', unread: 0, isGroup: true, muted: true },
  { id: 'club', unread: 1, isGroup: true, muted: true },
];
const folder = (
  rules: Partial<FolderRules>,
  includedIds: string[] = [],
  excludedIds: string[] = [],
): ChatFolderData => ({
  id: 'f',
  name: 'Папка',
  rules: { ...NO_RULES, ...rules },
  includedIds,
  excludedIds,
});
const ids = (f: ChatFolderData | null) => folderChats(chats, f).map((c) => c.id);

describe('which chats a folder shows', () => {
  it('«Все чаты» shows every chat', () => {
    expect(ids(null)).toEqual(chats.map((c) => c.id));
    expect(unreadChats(chats, null)).toBe(4);
  });

  it('each rule alone', () => {
    expect(ids(folder({ direct: true }))).toEqual(['anna', 'boris', 'vera']);
    expect(ids(folder({ groups: true }))).toEqual(['work', 'dacha', 'club']);
    expect(ids(folder({ unread: true }))).toEqual(['anna', 'vera', 'work', 'club']);
    expect(ids(folder({ muted: true }))).toEqual(['boris', 'dacha', 'club']);
  });

  it('kinds add up; every other chosen rule must hold as well', () => {
    expect(ids(folder({ direct: true, groups: true }))).toEqual(['anna', 'boris', 'vera', 'work', 'dacha', 'club']);
    expect(ids(folder({ groups: true, unread: true }))).toEqual(['work', 'club']);
    expect(ids(folder({ direct: true, muted: true }))).toEqual(['boris']);
    expect(ids(folder({ unread: true, muted: true }))).toEqual(['club']);
    expect(ids(folder({ direct: true, groups: true, unread: true, muted: true }))).toEqual(['club']);
  });

  it('chosen chats alone, and beside rules; an excluded chat never shows', () => {
    expect(ids(folder({}, ['work', 'saved']))).toEqual(['saved', 'work']);
    expect(ids(folder({ direct: true }, ['dacha']))).toEqual(['anna', 'boris', 'vera', 'dacha']);
    expect(ids(folder({ groups: true }, [], ['club']))).toEqual(['work', 'dacha']);
    expect(ids(folder({}, ['work'], ['work']))).toEqual([]);
  });

  it('a folder with neither rules nor chats shows nothing; «Избранное» only when named', () => {
    expect(ids(folder({}))).toEqual([]);
    expect(inFolder(folder({ direct: true }), { id: 'saved', unread: 0, saved: true })).toBe(false);
    expect(inFolder(folder({ unread: true }), { id: 'saved', unread: 3, saved: true })).toBe(false);
  });

  it('counts the unread chats of a tab, marked ones too', () => {
    expect(unreadChats(chats, folder({ direct: true }))).toBe(2);
    expect(unreadChats(chats, folder({ groups: true }))).toBe(2);
    expect(unreadChats(chats, folder({ muted: true }))).toBe(1);
    expect(unreadChats(chats, folder({}, ['dacha']))).toBe(0);
  });
});
