// A secret chat's rows (docs/secret-chats.md "Edits, reactions and deletions"): edits and reactions are no rows of
// their own; an ENCRYPTED message takes its «изменено», reactions and «Изменить» from what this device read.
import { describe, expect, it } from 'vitest';
import { message, person } from '../../../tests/client/chat-fixtures';
import { menuItems } from './message-actions';
import { galleryOf, messageRows } from './view-model';

const people = new Map([
  ['me', person('me', 'Я')],
  ['u2', person('u2', 'Анна')],
]);
const options = { me: 'me', conversationId: 'c1', isGroup: false, people, now: new Date('2025-03-01T12:00:00Z') };
const encrypted = (id: string, senderId: string, minute: number, control = false) =>
  message(id, senderId, minute, { type: 'ENCRYPTED', content: 'QUJD', ...(control ? { control: true } : {}) });

describe('secret chat rows', () => {
  it('leaves out control messages and shows what the device applied', () => {
    const rows = messageRows(
      [
        encrypted('m1', 'me', 1),
        encrypted('m2', 'u2', 2),
        encrypted('e1', 'me', 3, true),
        encrypted('r1', 'u2', 4, true),
      ],
      [],
      {
        ...options,
        secret: {
          m1: {
            status: 'text',
            text: 'исправлено',
            replyToId: null,
            edited: '2025-03-01T10:03:00.000Z',
            reactions: [{ emoji: '👍', userIds: ['u2', 'me'] }],
          },
          m2: { status: 'reading' },
        },
      },
    );
    expect(rows.map((r) => r.id)).toEqual(['m1', 'm2']);
    const [own, theirs] = rows;
    expect(own?.edited).toMatch(/изменено/);
    expect(own?.editable).toBe(true);
    expect(own?.reactions).toEqual([{ emoji: '👍', count: 2, mine: true, names: ['Анна', 'Я'] }]);
    // Not read yet here: nothing to edit, and no edit mark.
    expect(theirs?.editable).toBe(false);
    expect(theirs?.edited).toBeNull();
    // The menu offers «Изменить» and deletion, never «Переслать» or «Пожаловаться».
    const ownMenu = menuItems(own!, { canPin: true, pinned: new Set() }).map((i) => i.label);
    expect(ownMenu).toContain('Изменить');
    expect(ownMenu).toContain('Удалить');
    expect(ownMenu).not.toContain('Переслать');
    const theirMenu = menuItems(theirs!, { canPin: true, pinned: new Set() }).map((i) => i.label);
    expect(theirMenu).toContain('Скрыть у себя');
    expect(theirMenu).not.toContain('Пожаловаться');
  });

  it('an own ENCRYPTED message this device has not read cannot be edited', () => {
    const [row] = messageRows([encrypted('m1', 'me', 1)], [], options);
    expect(row?.editable).toBe(false);
  });

  it('a message MLS says someone else wrote is nobody’s words: no quote, edit or reaction', () => {
    // The server names Анна's device's words as mine: they are not shown under either name.
    const [row] = messageRows([encrypted('m1', 'me', 1)], [], {
      ...options,
      secret: { m1: { status: 'text', text: 'чужие слова', replyToId: null, from: 'u2' } },
    });
    expect(row?.unverified).toBe(true);
    expect(row?.editable).toBe(false);
    expect(row?.text).toBe('');
    const menu = menuItems(row!, { canPin: false, pinned: new Set() }).map((i) => i.action);
    expect(menu).not.toContain('quote');
    expect(menu).not.toContain('edit');
    expect(menu).not.toContain('copy');
  });

  it('puts the pictures this device decrypted in the lightbox’s list, in the bubbles’ order; files and unread messages add none', () => {
    const picture = (n: number, type = 'image/png') => ({
      url: `/api/secret/uploads/${n}`,
      key: 'k',
      iv: 'iv',
      name: `${n}.png`,
      type,
      size: 3,
    });
    const rows = messageRows(
      [encrypted('m1', 'u2', 1), encrypted('m2', 'me', 2), encrypted('m3', 'u2', 3), encrypted('m4', 'u2', 4)],
      [],
      {
        ...options,
        secret: {
          m1: { status: 'text', text: '', replyToId: null, attachments: [picture(1), picture(2, 'application/pdf')] },
          m2: { status: 'reading' },
          m3: { status: 'text', text: 'подпись', replyToId: null, attachments: [picture(3), picture(4, 'image/jpeg')] },
          m4: { status: 'text', text: 'просто текст', replyToId: null },
        },
      },
    );
    const gallery = galleryOf(rows);
    expect(gallery.items.map((i) => [i.url, i.secret?.url])).toEqual([
      ['/api/secret/uploads/1', '/api/secret/uploads/1'],
      ['/api/secret/uploads/3', '/api/secret/uploads/3'],
      ['/api/secret/uploads/4', '/api/secret/uploads/4'],
    ]);
    expect([...gallery.start]).toEqual([
      ['m1', 0],
      ['m3', 1],
    ]);
  });
});
