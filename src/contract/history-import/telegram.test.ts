import { describe, expect, it } from 'vitest';
import { analyseExport, type ImportedMessage, ImportFormatError, readExportMessages, zipExportFiles } from './index';
import { JPEG, NOW, OGG, telegramChat, tg, zipSource } from './test-fixtures';

const NOT_INCLUDED = '(File not included. Change data exporting settings to download.)';

async function all(files: Parameters<typeof readExportMessages>[0], opts = {}): Promise<ImportedMessage[]> {
  const out: ImportedMessage[] = [];
  for await (const m of readExportMessages(files, { now: NOW, ...opts })) out.push(m);
  return out;
}

const chat = [
  tg(1, '2024-03-12T14:05:33', { from: 'Анна', from_id: 'user1', text: 'Привет! Собака нашлась' }),
  tg(2, '2024-03-12T14:06:00', {
    from: 'Борис',
    from_id: 'user2',
    reply_to_message_id: 1,
    edited: '2024-03-12T14:07:00',
    edited_unixtime: '1710252420',
    text: [
      'Смотри ',
      { type: 'text_link', text: 'сюда', href: 'https://example.org/a' },
      ' и ',
      { type: 'link', text: 'https://ya.ru' },
      ', ',
      { type: 'mention', text: '@anna' },
      ' ',
      { type: 'mention_name', text: 'Анна', user_id: 1 },
      ' ',
      { type: 'bold', text: 'жирно' },
      { type: 'italic', text: ' курсив' },
      { type: 'hashtag', text: ' #собака' },
      { type: 'code', text: ' x=1' },
      { type: 'pre', text: ' y', language: 'js' },
      { type: 'strikethrough', text: ' зачёркнуто' },
      { type: 'spoiler', text: ' тайна' },
      { type: 'custom_emoji', text: '🐶', document_id: 'x' },
    ],
  }),
  tg(3, '2024-03-12T14:08:00', {
    from: 'Анна',
    from_id: 'user1',
    photo: 'photos/photo_1@12-03-2024_14-08-00.jpg',
    width: 10,
    height: 10,
    text: 'Вот она',
  }),
  tg(4, '2024-03-12T14:09:00', {
    from: 'Анна',
    from_id: 'user1',
    file: 'voice_messages/audio_1@12-03-2024_14-09-00.ogg',
    media_type: 'voice_message',
    mime_type: 'audio/ogg',
    duration_seconds: 3,
    text: '',
  }),
  tg(5, '2024-03-12T14:10:00', {
    from: 'Борис',
    from_id: 'user2',
    file: 'stickers/sticker.webp',
    media_type: 'sticker',
    sticker_emoji: '🐶',
    text: '',
  }),
  tg(6, '2024-03-12T14:11:00', {
    from: 'Борис',
    from_id: 'user2',
    file: NOT_INCLUDED,
    media_type: 'video_file',
    mime_type: 'video/mp4',
    text: 'кино',
  }),
  tg(7, '2024-03-12T14:12:00', { from: 'Борис', from_id: 'user2', photo: NOT_INCLUDED, text: '' }),
  tg(8, '2024-03-12T14:13:00', {
    from: 'Анна',
    from_id: 'user1',
    file: 'files/отчёт.pdf',
    file_name: 'отчёт.pdf',
    mime_type: 'application/pdf',
    text: 'отчёт',
  }),
  tg(9, '2024-03-12T14:14:00', {
    from: 'Анна',
    from_id: 'user1',
    poll: {
      question: 'Куда идём?',
      closed: false,
      total_voters: 3,
      answers: [
        { text: 'Парк', voters: 2, chosen: true },
        { text: 'Кино', voters: 1, chosen: false },
      ],
    },
    text: '',
  }),
  tg(10, '2024-03-12T14:15:00', {
    from: 'Анна',
    from_id: 'user1',
    location_information: { latitude: 55.75, longitude: 37.62 },
    text: '',
  }),
  tg(11, '2024-03-12T14:16:00', {
    from: 'Анна',
    from_id: 'user1',
    contact_information: { first_name: 'Вера', last_name: 'Ли', phone_number: '+79990001122' },
    text: '',
  }),
  {
    id: 12,
    type: 'service',
    date: '2024-03-12T14:17:00',
    date_unixtime: String(Date.UTC(2024, 2, 12, 14, 17) / 1000),
    actor: 'Анна',
    actor_id: 'user1',
    action: 'invite_members',
    members: ['Вера'],
    text: '',
  },
  tg(13, '2024-03-12T14:18:00', {
    from: 'Вера',
    from_id: 'user3',
    file: 'video_files/v.mp4',
    media_type: 'video_file',
    mime_type: 'video/mp4',
    text: '',
  }),
  tg(14, '2024-03-12T14:19:00', {
    from: 'Вера',
    from_id: 'user3',
    file: 'files/a.gif.mp4',
    media_type: 'animation',
    mime_type: 'video/mp4',
    text: '',
  }),
  tg(15, '2024-03-12T14:20:00', {
    from: 'Вера',
    from_id: 'user3',
    file: 'files/song.mp3',
    media_type: 'audio_file',
    mime_type: 'audio/mpeg',
    file_name: 'song.mp3',
    text: '',
  }),
  tg(16, '2024-03-12T14:21:00', { from: null, from_id: 'user9', text: 'от удалённого' }),
];

const media = {
  'photos/photo_1@12-03-2024_14-08-00.jpg': JPEG,
  'voice_messages/audio_1@12-03-2024_14-09-00.ogg': OGG,
  'stickers/sticker.webp': JPEG,
  'files/отчёт.pdf': '%PDF-1.4',
  'video_files/v.mp4': JPEG,
  'files/a.gif.mp4': JPEG,
  'files/song.mp3': JPEG,
};

describe('Telegram single-chat export', () => {
  it('reads every kind of message, entity and media from a zipped export folder', async () => {
    const files = await zipExportFiles(
      zipSource({ 'result.json': telegramChat(chat), ...media }, 'ChatExport_2024-03-12/'),
    );
    const summary = await analyseExport(files, { now: NOW });
    expect(summary).toMatchObject({
      source: 'telegram',
      messageCount: 16,
      chats: [{ id: '0', name: 'Друзья', type: 'private_group', messageCount: 16 }],
    });
    expect(summary.authors.map((a) => [a.key, a.name, a.messageCount])).toEqual([
      ['user1', 'Анна', 7],
      ['user2', 'Борис', 4],
      ['user3', 'Вера', 3],
      ['user9', 'Удалённый аккаунт', 1],
    ]);
    expect(summary.firstDate).toBe(Date.UTC(2024, 2, 12, 14, 5, 33));
    const ms = await all(files);
    expect(ms.map((m) => m.sourceId)).toEqual(chat.map((m) => String((m as { id: number }).id)));
    const [m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14, m15] = ms;
    expect(m1).toEqual({
      sourceId: '1',
      date: Date.UTC(2024, 2, 12, 14, 5, 33),
      authorKey: 'user1',
      authorName: 'Анна',
      kind: 'text',
      text: 'Привет! Собака нашлась',
    });
    expect(m2.text).toBe('Смотри сюда и https://ya.ru, @anna Анна жирно курсив #собака x=1 y зачёркнуто тайна🐶');
    // Formatting and links under other words are kept as ranges over the plain text.
    const at = (s: string) => m2.text.indexOf(s);
    expect(m2.entities).toEqual([
      { type: 'text_link', offset: at('сюда'), length: 4, url: 'https://example.org/a' },
      { type: 'bold', offset: at('жирно'), length: 5 },
      { type: 'italic', offset: at(' курсив'), length: 7 },
      { type: 'code', offset: at(' x=1'), length: 4 },
      { type: 'pre', offset: at(' y'), length: 2, language: 'js' },
      { type: 'strikethrough', offset: at(' зачёркнуто'), length: 11 },
      { type: 'spoiler', offset: at(' тайна'), length: 6 },
    ]);
    expect(m2.replyToSourceId).toBe('1');
    expect(m2.editedAt).toBe(1710252420000);
    expect(m3).toMatchObject({
      kind: 'image',
      text: 'Вот она',
      media: { path: 'photos/photo_1@12-03-2024_14-08-00.jpg', mime: 'image/jpeg' },
    });
    expect(m4).toMatchObject({
      kind: 'voice',
      media: { path: 'voice_messages/audio_1@12-03-2024_14-09-00.ogg', mime: 'audio/ogg' },
    });
    expect(m5).toMatchObject({ kind: 'placeholder', placeholder: 'Стикер 🐶' });
    expect(m6).toMatchObject({ kind: 'placeholder', placeholder: 'Видео (не экспортировано)', text: 'кино' });
    expect(m7).toMatchObject({ kind: 'placeholder', placeholder: 'Фото (не экспортировано)' });
    expect(m8).toMatchObject({
      kind: 'file',
      text: 'отчёт',
      media: { path: 'files/отчёт.pdf', name: 'отчёт.pdf', mime: 'application/pdf' },
    });
    expect(m9.placeholder).toBe('Опрос «Куда идём?»: Парк (2), Кино (1)');
    expect(m10.placeholder).toBe('Геопозиция: 55.75, 37.62');
    expect(m11.placeholder).toBe('Контакт: Вера Ли, +79990001122');
    expect(m12).toMatchObject({
      kind: 'service',
      authorKey: null,
      authorName: 'Анна',
      text: 'В группу добавлены: Вера',
    });
    expect(m13).toMatchObject({ kind: 'video', media: { path: 'video_files/v.mp4' } });
    expect(m14).toMatchObject({ kind: 'video' });
    expect(m15).toMatchObject({ kind: 'file', media: { name: 'song.mp3', mime: 'audio/mpeg' } });
    // The media bytes come out as they went in.
    const chunks: Uint8Array[] = [];
    for await (const c of files.open('photos/photo_1@12-03-2024_14-08-00.jpg')) chunks.push(c);
    expect(Buffer.concat(chunks)).toEqual(Buffer.from(JPEG));
  });

  it('a media path that climbs out of the export is refused, one that is missing becomes a placeholder', async () => {
    const climbing = await zipExportFiles(
      zipSource({
        'result.json': telegramChat([
          tg(1, '2024-03-12T14:05:33', { from: 'А', from_id: 'user1', photo: '../../etc/passwd', text: '' }),
        ]),
      }),
    );
    await expect(analyseExport(climbing, { now: NOW })).rejects.toThrow(/вне экспорта/);
    const missing = await zipExportFiles(
      zipSource({
        'result.json': telegramChat([
          tg(1, '2024-03-12T14:05:33', { from: 'А', from_id: 'user1', photo: 'photos/nope.jpg', text: '' }),
        ]),
      }),
    );
    expect((await all(missing))[0]).toMatchObject({ kind: 'placeholder', placeholder: 'Фото (не экспортировано)' });
  });
});

describe('Telegram: the remaining kinds', () => {
  it('entities, round videos, places, games, dice, unknown media, service actions and an export without Unix times', async () => {
    const ms = [
      tg(1, '2024-03-12T10:00:00', {
        from: 'А',
        from_id: 'user1',
        text: [
          { type: 'plain', text: 'a' },
          { type: 'underline', text: 'b' },
          { type: 'cashtag', text: ' $USD' },
          { type: 'bot_command', text: ' /start' },
          { type: 'email', text: ' a@b.ru' },
          { type: 'phone', text: ' +79990001122' },
          { type: 'bank_card', text: ' 4242' },
          { type: 'blockquote', text: ' цитата' },
          { type: 'expandable_blockquote', text: ' ещё' },
          { type: 'text_link', text: ' same', href: ' same' },
          { type: 'text_link', text: '', href: 'https://x.ru' },
        ],
      }),
      tg(2, '2024-03-12T10:01:00', {
        from: 'А',
        from_id: 'user1',
        file: 'round_video_messages/r.mp4',
        media_type: 'video_message',
        mime_type: 'video/mp4',
        text: '',
      }),
      tg(3, '2024-03-12T10:02:00', {
        from: 'А',
        from_id: 'user1',
        location_information: { latitude: 1, longitude: 2 },
        place_name: 'Кафе',
        address: 'Тверская, 1',
        text: '',
      }),
      tg(4, '2024-03-12T10:03:00', {
        from: 'А',
        from_id: 'user1',
        location_information: { latitude: 1, longitude: 2 },
        live_location_period_seconds: 900,
        text: '',
      }),
      tg(5, '2024-03-12T10:04:00', { from: 'А', from_id: 'user1', game_title: 'Шашки', text: '' }),
      tg(6, '2024-03-12T10:05:00', { from: 'А', from_id: 'user1', dice: { emoji: '🎲', value: 3 }, text: '' }),
      tg(7, '2024-03-12T10:06:00', { from: 'А', from_id: 'user1', media_type: 'something_new', text: '' }),
      tg(8, '2024-03-12T10:07:00', { from: 'А', from_id: 'user1', text: '' }),
      tg(9, '2024-03-12T10:08:00', {
        from: 'А',
        from_id: 'user1',
        file: NOT_INCLUDED,
        media_type: 'voice_message',
        text: '',
      }),
      tg(10, '2024-03-12T10:09:00', { from: 'А', from_id: 'user1', file: NOT_INCLUDED, file_name: 'x.zip', text: '' }),
      ...[
        ['create_group', { title: 'Друзья', members: ['А'] }, 'Создана группа «Друзья»'],
        ['remove_members', { members: ['Б', 'В'] }, 'Из группы удалены: Б, В'],
        ['join_group_by_link', {}, 'Вступление в группу по ссылке'],
        ['edit_group_title', { title: 'Новое' }, 'Название группы изменено: «Новое»'],
        ['edit_group_photo', {}, 'Фото группы изменено'],
        ['pin_message', { message_id: 1 }, 'Сообщение закреплено'],
        ['phone_call', { duration_seconds: 65 }, 'Звонок (1 мин 5 с)'],
        ['phone_call', { discard_reason: 'missed' }, 'Звонок пропущен'],
        ['group_call', { duration: 5 }, 'Групповой звонок (5 с)'],
        ['migrate_to_supergroup', {}, 'Группа преобразована в супергруппу'],
        ['something_new', {}, 'Служебное сообщение'],
      ].map(([action, fields], i) => ({
        id: 20 + i,
        type: 'service',
        date: '2024-03-12T11:00:00',
        actor: 'А',
        actor_id: 'user1',
        action,
        ...(fields as object),
        text: '',
      })),
    ];
    // Exports before 2021 carry only `date`, wall-clock time: read as UTC.
    const old = {
      id: 40,
      type: 'message',
      date: '2019-05-01T08:00:00',
      edited: '2019-05-01T09:00:00',
      from: 'А',
      from_id: 'user1',
      text: 'старое',
    };
    const files = await zipExportFiles(
      zipSource({ 'result.json': telegramChat([...ms, old]), 'round_video_messages/r.mp4': JPEG }),
    );
    const out = await all(files);
    expect(out[0].text).toBe('ab $USD /start a@b.ru +79990001122 4242 цитата ещё samehttps://x.ru');
    expect(out[1]).toMatchObject({ kind: 'video', media: { path: 'round_video_messages/r.mp4', mime: 'video/mp4' } });
    expect(out.slice(2, 10).map((m) => m.placeholder)).toEqual([
      'Место: Кафе, Тверская, 1 (1, 2)',
      'Трансляция геопозиции: 1, 2',
      'Игра «Шашки»',
      'Игральный кубик',
      'Вложение, которое не поддерживается',
      'Сообщение, которое не поддерживается',
      'Голосовое сообщение (не экспортировано)',
      'Файл «x.zip» (не экспортирован)',
    ]);
    expect(out.slice(10, 21).map((m) => m.text)).toEqual([
      'Создана группа «Друзья»',
      'Из группы удалены: Б, В',
      'Вступление в группу по ссылке',
      'Название группы изменено: «Новое»',
      'Фото группы изменено',
      'Сообщение закреплено',
      'Звонок (1 мин 5 с)',
      'Звонок пропущен',
      'Групповой звонок (5 с)',
      'Группа преобразована в супергруппу',
      'Служебное сообщение',
    ]);
    expect(out[21]).toMatchObject({ date: Date.UTC(2019, 4, 1, 8), editedAt: Date.UTC(2019, 4, 1, 9), text: 'старое' });
  });
});

describe('Telegram whole-account export', () => {
  const account = JSON.stringify({
    about: 'Here is the data you requested.',
    personal_information: { user_id: 1, first_name: 'Я', bio: 'x' },
    contacts: { about: '', list: [{ first_name: 'Вера', phone_number: '+7', date: '2020-01-01T00:00:00' }] },
    chats: {
      about: '',
      list: [
        {
          name: 'Анна',
          type: 'personal_chat',
          id: 111,
          messages: [
            tg(1, '2024-01-01T10:00:00', { from: 'Анна', from_id: 'user1', text: 'раз' }),
            tg(2, '2024-01-01T10:01:00', { from: 'Я', from_id: 'user0', text: 'два' }),
          ],
        },
        {
          name: 'Работа',
          type: 'private_supergroup',
          id: 222,
          messages: [tg(7, '2024-02-01T10:00:00', { from: 'Босс', from_id: 'user5', text: 'отчёт' })],
        },
      ],
    },
    left_chats: { about: '', list: [{ name: 'Старое', type: 'private_group', id: 333, messages: [] }] },
  });

  it('lists the chats; authors and messages come from the chosen one', async () => {
    const files = await zipExportFiles(zipSource({ 'result.json': account }, 'DataExport_2024-03-12/'));
    const summary = await analyseExport(files, { now: NOW });
    expect(summary.chats).toEqual([
      { id: '111', name: 'Анна', type: 'personal_chat', messageCount: 2 },
      { id: '222', name: 'Работа', type: 'private_supergroup', messageCount: 1 },
      { id: '333', name: 'Старое', type: 'private_group', messageCount: 0 },
    ]);
    expect(summary.authors).toEqual([]);
    expect(summary.messageCount).toBe(3);
    const work = await analyseExport(files, { now: NOW, chatId: '222' });
    expect(work.authors).toEqual([{ key: 'user5', name: 'Босс', messageCount: 1 }]);
    expect((await all(files, { chatId: '222' })).map((m) => m.text)).toEqual(['отчёт']);
    expect((await all(files, { chatId: '111' })).map((m) => m.text)).toEqual(['раз', 'два']);
    await expect(all(files)).rejects.toThrow('В экспорте несколько чатов: выберите, какой импортировать.');
    await expect(analyseExport(files, { now: NOW, chatId: '999' })).rejects.toThrow(ImportFormatError);
  });
});
