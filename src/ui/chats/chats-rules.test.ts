// Pure rules of the chats page: presence and title texts, avatars, reply previews, history merging, the
// conversation list, the outbox's stored form and message rows.
import { describe, expect, it } from 'vitest';
import { conversation, entry, message, person } from '../../../tests/client/chat-fixtures';
import { RequestFailure } from '../../contract/failure';
import {
  avatarColour,
  avatarFace,
  conversationTitle,
  formatDate,
  fileSize,
  formatTime,
  initials,
  isGroupConversation,
  presenceDot,
  presenceText,
  replyPreview,
} from '../../contract/format';
import {
  presenceChange,
  sortEntries,
  withMessage,
  withUnread,
  withUser,
} from '../../machines/chats/chats/conversation-list';
import {
  FILES_LOST,
  messageTypeOf,
  type OutboxItem,
  parseStoredOutbox,
  restoredItem,
  sendBodyOf,
  storableItem,
} from '../../machines/composer/outbox/outbox-item';
import { addReceipts, mergeMessages, prependPage } from '../../machines/conversation/conversation/history';
import { isReadByOthers } from '../../machines/conversation/conversation/read-mark';
import { chatTile, galleryOf, headerOf, messageRows, typingText } from '../conversation/view-model';

const NOW = Date.parse('2025-03-10T12:00:00.000Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const me = person('me', 'Я');
const anna = person('u2', 'Анна', { status: 'ONLINE' });
const boris = person('u3', 'Борис');

describe('presence text (docs/behaviour.md §4)', () => {
  it("says 'ОНЛАЙН', 'оффлайн' without a last-seen time, then minutes, hours, and a date", () => {
    expect(presenceText({ status: 'ONLINE', lastSeenAt: null }, NOW)).toBe('ОНЛАЙН');
    expect(presenceText({ status: 'OFFLINE', lastSeenAt: null }, NOW)).toBe('оффлайн');
    expect(presenceText({ status: 'OFFLINE', lastSeenAt: ago(5 * 60_000 + 10) }, NOW)).toBe(
      'был(а) онлайн 5 мин назад',
    );
    expect(presenceText({ status: 'OFFLINE', lastSeenAt: ago(59 * 60_000) }, NOW)).toBe('был(а) онлайн 59 мин назад');
    expect(presenceText({ status: 'OFFLINE', lastSeenAt: ago(60 * 60_000) }, NOW)).toBe('был(а) онлайн 1 ч назад');
    expect(presenceText({ status: 'OFFLINE', lastSeenAt: ago(23 * 3_600_000 + 59 * 60_000) }, NOW)).toBe(
      'был(а) онлайн 23 ч назад',
    );
    const old = new Date(NOW - 3 * 86_400_000);
    expect(presenceText({ status: 'OFFLINE', lastSeenAt: old.toISOString() }, NOW)).toBe(
      `был(а) онлайн ${formatDate(old)} в ${formatTime(old)}`,
    );
    expect(presenceText({ status: 'AWAY', lastSeenAt: null }, NOW)).toBe('Отошел');
    expect(presenceText({ status: 'DND', lastSeenAt: null }, NOW)).toBe('Не беспокоить');
  });

  it('colours the dot green, amber or grey', () => {
    expect([presenceDot('ONLINE'), presenceDot('AWAY'), presenceDot('DND'), presenceDot('OFFLINE')]).toEqual([
      'online',
      'away',
      'away',
      'offline',
    ]);
  });
});

describe('titles, avatars, previews', () => {
  it("uses the group title, else the other participants' names, else 'Диалог'", () => {
    expect(conversationTitle(conversation('c', [me, anna], { title: 'Поход' }), 'me')).toBe('Поход');
    expect(conversationTitle(conversation('c', [me, anna, boris]), 'me')).toBe('Анна, Борис');
    expect(conversationTitle(conversation('c', [me, person('u4', '', { username: 'vera' })]), 'me')).toBe('vera');
    expect(conversationTitle(conversation('c', [me]), 'me')).toBe('Диалог');
  });

  it('counts more than two participants as a group', () => {
    expect(isGroupConversation(conversation('c', [me, anna]))).toBe(false);
    expect(isGroupConversation(conversation('c', [me, anna, boris]))).toBe(true);
    expect(isGroupConversation(conversation('c', [me, anna], { isGroup: true }))).toBe(true);
  });

  it('shows emoji avatars, pictures or initials on a colour that depends only on the id', () => {
    expect(avatarFace('emoji:🦊', 'Лиса')).toEqual({ kind: 'emoji', emoji: '🦊' });
    expect(avatarFace('/uploads/x', 'Анна')).toEqual({ kind: 'image', url: '/uploads/x' });
    expect(avatarFace(null, 'Анна Петрова')).toEqual({ kind: 'initials', text: 'АП' });
    expect(avatarFace(null, 'борис')).toEqual({ kind: 'initials', text: 'Б' });
    // Letters only: quotes, dashes and emoji are no initials.
    expect(avatarFace(null, 'Команда «Север»')).toEqual({ kind: 'initials', text: 'КС' });
    expect(initials('«Дача» — 2025')).toBe('Д');
    expect(initials('🌲 Лес и поле')).toBe('ЛИ');
    expect(initials('(Резерв)')).toBe('Р');
    expect(initials('2025')).toBe('2');
    expect(initials('«»')).toBe('?');
    expect(initials('')).toBe('?');
    expect(avatarColour('u2')).toBe(avatarColour('u2'));
    expect(new Set(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map(avatarColour)).size).toBeGreaterThan(1);
  });

  it('says a file’s size as people read it', () => {
    expect(fileSize(812)).toBe('812\u00a0Б');
    expect(fileSize(14_500)).toBe('14\u00a0КБ');
    expect(fileSize(2.4 * 1024 * 1024)).toBe('2,4\u00a0МБ');
    expect(fileSize(25 * 1024 * 1024)).toBe('25\u00a0МБ');
    expect(fileSize(3 * 1024 ** 3)).toBe('3\u00a0ГБ');
  });

  it('cuts reply previews at 100 characters', () => {
    expect(replyPreview('коротко')).toBe('коротко');
    const long = 'я'.repeat(150);
    expect(replyPreview(long)).toBe(`${'я'.repeat(100)}…`);
    expect(replyPreview('x'.repeat(100))).toBe('x'.repeat(100));
  });
});

describe('history', () => {
  const m1 = message('m1', 'u2', 1);
  const m2 = message('m2', 'me', 2);
  const m3 = message('m3', 'u2', 3);
  it('merges each id once, in time order, dropping deleted ones', () => {
    expect(mergeMessages([m1, m3], [m2, m3]).map((m) => m.id)).toEqual(['m1', 'm2', 'm3']);
    expect(mergeMessages([m1, m2], [{ ...m2, deletedAt: 'x' }]).map((m) => m.id)).toEqual(['m1']);
    const same = [m1];
    expect(mergeMessages(same, [])).toBe(same);
  });
  it('prepends older pages and counts what was added', () => {
    expect(prependPage([m2, m3], [m1, m2])).toEqual({ messages: [m1, m2, m3], added: 1 });
  });
  it('adds read receipts once and tells own messages read by someone else', () => {
    const read = addReceipts([m2], 'u2', ['m2']);
    expect(read[0].receipts).toEqual([{ userId: 'u2', status: 'READ' }]);
    expect(addReceipts(read, 'u2', ['m2'])).toBe(read);
    expect(isReadByOthers(read[0])).toBe(true);
    expect(isReadByOthers({ ...m2, receipts: [{ userId: 'me', status: 'READ' }] })).toBe(false);
  });
});

describe('conversation list', () => {
  const c1 = entry(conversation('c1', [me, anna], { messages: [message('a', 'u2', 1)] }), 0);
  const c2 = entry(conversation('c2', [me, boris], { messages: [message('b', 'u3', 2, { conversationId: 'c2' })] }), 1);
  const empty = entry(conversation('c3', [me, boris]));
  it('sorts newest first, conversations without messages last', () => {
    expect(sortEntries([empty, c1, c2]).map((e) => e.conversation.id)).toEqual(['c2', 'c1', 'c3']);
  });
  it('sorts a conversation without messages by its creation time: a just-made one is on top', () => {
    const latest = c2.conversation.messages[0]?.createdAt as string;
    const fresh = { ...empty, conversation: { ...empty.conversation, createdAt: `${latest}Z` } };
    expect(sortEntries([c1, c2, fresh]).map((e) => e.conversation.id)).toEqual(['c3', 'c2', 'c1']);
  });
  it('moves a conversation with a new message to the top and counts unread', () => {
    const next = withMessage([c2, c1], message('c', 'u2', 5), 1);
    expect(next.map((e) => [e.conversation.id, e.unreadCount])).toEqual([
      ['c1', 1],
      ['c2', 1],
    ]);
    expect(withUnread(next, 'c1', (n) => n - 5)[0].unreadCount).toBe(0);
  });
  it('updates a participant everywhere; presence sets last seen to now when the server sends none', () => {
    const next = withUser([c1], 'u2', presenceChange('OFFLINE', null, '2025-03-10T12:00:00.000Z'));
    expect(next[0].conversation.participants[1].user).toMatchObject({
      status: 'OFFLINE',
      lastSeenAt: '2025-03-10T12:00:00.000Z',
    });
    expect(withUser([c1], 'nobody', (u) => u)).toEqual([c1]);
  });
});

describe('outbox', () => {
  const item: OutboxItem = {
    id: 'tmp-t-1',
    clientMessageId: 't-1',
    conversationId: 'c1',
    kind: 'files',
    content: '',
    replyTo: null,
    files: [
      {
        name: 'a.png',
        size: 3,
        mime: 'image/png',
        progress: 100,
        file: null,
        attachment: { url: '/uploads/a', type: 'IMAGE', name: 'a.png', size: 3, width: 1, height: 1 },
      },
      { name: 'b.png', size: 3, mime: 'image/png', progress: 20, file: new Blob(['x']), attachment: null },
    ],
    status: 'uploading',
    error: null,
    retryable: true,
    createdAt: '2025-03-10T12:00:00.000Z',
  };
  it('stores everything but the bytes, and reads back only well-formed items', () => {
    const stored = JSON.parse(JSON.stringify([storableItem(item), { junk: true }]));
    const back = parseStoredOutbox(stored);
    expect(back).toHaveLength(1);
    expect(back[0].files[1].file).toBeNull();
    expect(parseStoredOutbox('nonsense')).toEqual([]);
  });
  it('drops a corrupted stored item and keeps the good ones beside it', () => {
    const good = storableItem(item);
    const file = good.files[0];
    const corrupted = [
      { ...good, status: 'sent' },
      { ...good, files: [{ ...file, attachment: { ...file.attachment, type: 'VIDEO' } }] },
      { ...good, files: [{ ...file, size: '3' }] },
      { ...good, replyTo: { id: 'm1' } },
      { ...good, createdAt: undefined },
      null,
    ];
    const stored = JSON.parse(JSON.stringify([good, ...corrupted, { ...good, id: 'tmp-t-2', clientMessageId: 't-2' }]));
    expect(parseStoredOutbox(stored).map((x) => x.clientMessageId)).toEqual(['t-1', 't-2']);
    expect(parseStoredOutbox(stored)[0]).toEqual(good);
  });
  it('restores interrupted items as failed; files whose bytes are gone cannot be retried', () => {
    expect(restoredItem({ ...item, files: [item.files[0]], status: 'sending' })).toMatchObject({
      status: 'failed',
      retryable: true,
      error: null,
    });
    expect(restoredItem(storableItem(item))).toMatchObject({ status: 'failed', retryable: false, error: FILES_LOST });
  });
  it('sends one IMAGE message for images only, else FILE, with the clientMessageId', () => {
    const uploaded = {
      ...item,
      files: [
        item.files[0],
        { ...item.files[0], name: 'c.txt', attachment: { ...item.files[0].attachment!, type: 'FILE' as const } },
      ],
    };
    expect(messageTypeOf({ ...item, files: [item.files[0]] })).toBe('IMAGE');
    expect(messageTypeOf(uploaded)).toBe('FILE');
    expect(sendBodyOf(uploaded)).toMatchObject({
      type: 'FILE',
      clientMessageId: 't-1',
      attachments: [{ type: 'IMAGE' }, { type: 'FILE' }],
    });
  });
  it('counts network failures, server errors, 401, 408 and 429 as worth retrying, any other 4xx as refused', () => {
    expect(new RequestFailure(null, null).refused).toBe(false);
    for (const status of [401, 408, 429, 500, 503]) expect(new RequestFailure(status, null).refused).toBe(false);
    for (const status of [400, 403, 404, 413, 422]) expect(new RequestFailure(status, 'нет').refused).toBe(true);
  });
});

describe('message rows', () => {
  const people = new Map([
    ['me', me],
    ['u2', anna],
    ['u3', boris],
  ]);
  const options = { me: 'me', conversationId: 'c1', isGroup: true, people };
  it('groups runs of one sender, names senders in groups and marks delivery and unread', () => {
    const rows = messageRows(
      [
        message('m1', 'u2', 1),
        message('m2', 'u2', 2, { receipts: [{ userId: 'me', status: 'READ' }] }),
        message('m3', 'me', 3, { receipts: [{ userId: 'u2', status: 'READ' }] }),
        message('m4', 'me', 4, { clientMessageId: 't-9' }),
      ],
      [],
      options,
    );
    expect(rows.map((r) => [r.id, r.firstInRun, r.lastInRun, r.showSender, r.delivery, r.unread])).toEqual([
      ['m1', true, false, true, null, true],
      ['m2', false, true, false, null, false],
      ['m3', true, false, false, 'read', false],
      ['m4', false, true, false, 'sent', false],
    ]);
    expect(rows[0].day).not.toBeNull();
    expect(rows[1].day).toBeNull();
    expect(rows[3].key).toBe('t-9');
  });
  it('lets a service line break a run: the creator’s first message after «… создал(а) группу» is named', () => {
    const created = {
      kind: 'created' as const,
      actor: { id: 'u2', name: 'Анна' },
      targets: [],
      title: null,
    };
    const rows = messageRows(
      [
        message('s1', 'u2', 1, { type: 'SYSTEM', content: '', system: created }),
        message('m1', 'u2', 2),
        message('m2', 'u2', 3),
      ],
      [],
      options,
    );
    expect(rows.map((r) => [r.id, r.firstInRun, r.lastInRun, r.showSender])).toEqual([
      ['s1', true, true, false],
      ['m1', true, false, true],
      ['m2', false, true, false],
    ]);
  });
  it('adds outbox items of this conversation that the server does not have yet, keyed by clientMessageId', () => {
    const pending = (n: number, over: Partial<OutboxItem> = {}): OutboxItem => ({
      id: `tmp-t-${n}`,
      clientMessageId: `t-${n}`,
      conversationId: 'c1',
      kind: 'text',
      content: `черновик ${n}`,
      replyTo: { id: 'm1', content: 'x'.repeat(120) },
      files: [],
      status: 'queued',
      error: null,
      retryable: true,
      createdAt: '2025-03-01T10:05:00.000Z',
      ...over,
    });
    const rows = messageRows(
      [message('m1', 'u2', 1), message('m5', 'me', 2, { clientMessageId: 't-1' })],
      [pending(1), pending(2, { status: 'failed' }), pending(3, { conversationId: 'c2' })],
      options,
    );
    expect(rows.map((r) => [r.key, r.delivery])).toEqual([
      ['m1', null],
      ['t-1', 'sent'],
      ['t-2', 'failed'],
    ]);
    expect(rows[2].reply?.preview).toHaveLength(101);
  });
  it('marks @все as a mention of the user when the server counted them in (docs/behaviour.md §10.26)', () => {
    const rows = messageRows(
      [
        message('m1', 'u2', 1, { content: 'Созвон, @все', mentions: ['me', 'u3'] }),
        message('m2', 'u2', 2, { content: '@все, кроме меня', mentions: ['u3'] }),
        message('m3', 'u2', 3, { content: '@все без права' }),
      ],
      [],
      options,
    );
    expect(rows.map((r) => r.mentions?.find((m) => m.name === 'все'))).toEqual([
      { name: 'все', me: true },
      { name: 'все', me: false },
      undefined,
    ]);
  });
  it('collects the images for the lightbox', () => {
    const img = (id: string) =>
      message(id, 'u2', 1, {
        type: 'IMAGE',
        attachments: [{ url: `/uploads/${id}`, type: 'IMAGE', name: `${id}.png`, size: 1, width: 1, height: 1 }],
      });
    const { items, start } = galleryOf(messageRows([img('a'), message('t', 'u2', 2), img('b')], [], options));
    expect(items.map((i) => i.url)).toEqual(['/uploads/a', '/uploads/b']);
    expect(start.get('b')).toBe(1);
  });
  it('says who types', () => {
    expect(typingText([])).toBe('');
    expect(typingText(['Анна'])).toBe('Анна печатает');
    expect(typingText(['Анна', 'Борис'])).toBe('Анна и Борис печатают');
    expect(typingText(['Анна', 'Борис', 'Вера'])).toBe('Несколько человек печатают');
  });
  it("shows '{n} непрочитанных', else a group's names, else the peer's presence; the header likewise", () => {
    const direct = entry(conversation('c1', [me, anna]), 0);
    expect(chatTile(direct, 'me', null, NOW).subtitle).toBe('ОНЛАЙН');
    expect(chatTile({ ...direct, unreadCount: 4 }, 'me', 'c1', NOW)).toMatchObject({
      subtitle: '4 непрочитанных',
      active: true,
    });
    const group = entry(conversation('g', [me, anna, boris], { title: 'Поход' }), 0);
    expect(chatTile(group, 'me', null, NOW)).toMatchObject({ title: 'Поход', subtitle: 'Анна, Борис' });
    expect(chatTile(group, 'me', null, NOW).avatar.presence).toBeNull();
    // A group whose call is on wears the call's mark; none once it ended.
    expect(chatTile(group, 'me', null, NOW).call).toBe(false);
    expect(chatTile({ ...group, groupCall: { participantIds: ['u2'], video: false } }, 'me', null, NOW).call).toBe(
      true,
    );
    expect(headerOf(direct, 'me', NOW)).toMatchObject({ title: 'Анна', status: 'ОНЛАЙН', online: true });
    expect(headerOf(direct, 'me', NOW).customStatus).toBeUndefined();
    // A status of one's own (§10.44) beside presence, never in place of it; a group's header has none.
    const away = { ...anna, customStatus: { emoji: '🌴', text: 'В отпуске', expiresAt: null } };
    const withStatus = entry(conversation('d', [me, away]), 0);
    expect(headerOf(withStatus, 'me', NOW)).toMatchObject({ status: 'ОНЛАЙН', customStatus: '🌴 В отпуске' });
    const textOnly = { ...anna, customStatus: { emoji: '', text: 'Работаю', expiresAt: null } };
    expect(headerOf(entry(conversation('d', [me, textOnly]), 0), 'me', NOW).customStatus).toBe('Работаю');
    expect(headerOf(entry(conversation('g', [me, away, boris], { title: 'Поход' }), 0), 'me', NOW).customStatus).toBe(
      undefined,
    );
  });
  it('adds the latest message in words with its sender and time, or the draft instead', () => {
    const said = message('x', 'u2', 1, { conversationId: 'g', content: 'идём в субботу' });
    const group = entry(conversation('g', [me, anna, boris], { title: 'Поход', messages: [said] }), 0);
    expect(chatTile(group, 'me', null, NOW)).toMatchObject({
      preview: 'идём в субботу',
      previewSender: 'Анна',
      draft: null,
    });
    expect(chatTile(group, 'me', null, NOW).time).toMatch(/^\d\d:\d\d$|^вчера$|^\d\d\.\d\d/);
    expect(chatTile(group, 'me', null, NOW, '  беру  палатку ').draft).toBe('беру палатку');
  });
});
