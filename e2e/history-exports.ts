// Chat exports built at test time to the formats Telegram Desktop («Экспорт истории чата», machine-readable JSON)
// and WhatsApp («Экспорт чата») document, zipped with fflate: what a person would choose in «Импорт истории».
import fs from 'node:fs';
import path from 'node:path';
import { strToU8, type Zippable, zipSync } from 'fflate';
import sharp from 'sharp';

const unix = (iso: string) => String(Math.floor(Date.parse(`${iso}Z`) / 1000));

/** One Telegram message as Telegram Desktop writes it. */
function tg(id: number, iso: string, fields: Record<string, unknown>): Record<string, unknown> {
  return { id, type: 'message', date: iso, date_unixtime: unix(iso), ...fields };
}

export interface TelegramExport {
  zip: Buffer;
  /** The authors' names as the export has them. */
  authors: { anna: string; boris: string; olga: string };
  dogText: string;
  messageCount: number;
}

/**
 * A group's export with text, an entity-array text, a reply, an edit, two photos, a voice message and a sticker,
 * in the folder Telegram writes («ChatExport_2024-03-12/»).
 */
export async function telegramExport(): Promise<TelegramExport> {
  const photo = (color: string) =>
    sharp({ create: { width: 64, height: 48, channels: 3, background: color } })
      .jpeg()
      .toBuffer();
  const [red, blue] = await Promise.all([photo('#d23b3b'), photo('#3b6cf0')]);
  const voice = fs.readFileSync(path.resolve('tests/fixtures/voice-2s.webm'));
  const dogText = 'Наша собака спит на диване';
  const messages = [
    {
      id: 1,
      type: 'service',
      date: '2024-03-12T10:00:00',
      date_unixtime: unix('2024-03-12T10:00:00'),
      actor: 'Анна Иванова',
      actor_id: 'user101',
      action: 'create_group',
      title: 'Дача',
      members: [],
    },
    tg(2, '2024-03-12T10:01:00', { from: 'Анна Иванова', from_id: 'user101', text: 'Всем привет!' }),
    tg(3, '2024-03-12T10:02:00', { from: 'Ольга', from_id: 'user303', text: dogText }),
    tg(4, '2024-03-12T10:03:00', {
      from: 'Борис',
      from_id: 'user202',
      reply_to_message_id: 3,
      text: ['Смотрите ', { type: 'link', text: 'https://example.org/dog' }, ' — похожа!'],
      edited: '2024-03-12T10:04:00',
      edited_unixtime: unix('2024-03-12T10:04:00'),
    }),
    tg(5, '2024-03-12T10:05:00', {
      from: 'Ольга',
      from_id: 'user303',
      photo: 'photos/photo_1@12-03-2024_10-05-00.jpg',
      width: 64,
      height: 48,
      text: 'Красный дом',
    }),
    tg(6, '2024-03-12T10:06:00', {
      from: 'Анна Иванова',
      from_id: 'user101',
      photo: 'photos/photo_2@12-03-2024_10-06-00.jpg',
      width: 64,
      height: 48,
      text: '',
    }),
    tg(7, '2024-03-12T10:07:00', {
      from: 'Борис',
      from_id: 'user202',
      file: 'voice_messages/audio_1@12-03-2024_10-07-00.ogg',
      media_type: 'voice_message',
      mime_type: 'audio/ogg',
      duration_seconds: 2,
      text: '',
    }),
    tg(8, '2024-03-12T10:08:00', {
      from: 'Ольга',
      from_id: 'user303',
      file: 'stickers/sticker.webp',
      media_type: 'sticker',
      sticker_emoji: '🐶',
      text: '',
    }),
  ];
  const json = JSON.stringify({ name: 'Дача', type: 'private_group', id: 4815162342, messages }, null, 1);
  const folder = 'ChatExport_2024-03-12/';
  const files: Zippable = {
    [`${folder}result.json`]: strToU8(json),
    [`${folder}photos/photo_1@12-03-2024_10-05-00.jpg`]: new Uint8Array(red),
    [`${folder}photos/photo_2@12-03-2024_10-06-00.jpg`]: new Uint8Array(blue),
    [`${folder}voice_messages/audio_1@12-03-2024_10-07-00.ogg`]: new Uint8Array(voice),
    [`${folder}stickers/sticker.webp`]: strToU8('RIFF sticker'),
  };
  return {
    zip: Buffer.from(zipSync(files, { level: 6 })),
    authors: { anna: 'Анна Иванова', boris: 'Борис', olga: 'Ольга' },
    dogText,
    messageCount: messages.length,
  };
}

/** WhatsApp's «Экспорт чата» from a phone set to Russian: «[12.03.2024, 14:05:33] Анна: текст», media left out. */
export function whatsappExport(lines: string[], name = 'Чат WhatsApp с Верой.txt'): Buffer {
  const text = `${lines.join('\n')}\n`;
  return Buffer.from(zipSync({ [name]: strToU8(text) }, { level: 6 }));
}

export const WHATSAPP_LINES = [
  '[12.03.2024, 14:05:33] \u200eСообщения и звонки защищены сквозным шифрованием.',
  '[12.03.2024, 14:05:33] Вера: Привет! Когда встречаемся?',
  '[12.03.2024, 14:06:10] Анна: Давай в субботу',
  'в десять у метро',
  '[12.03.2024, 14:07:00] Вера: \u200e<Медиафайлы удалены>',
  '[13.03.2024, 09:15:42] Вера: Купила билеты на электричку',
];
