import { describe, expect, it } from 'vitest';
import type { SecretAttachment } from '../../machines/secretChats/secretChat/secretChat.protocol';
import type { SecretPlaintext } from '../secretChats/crypto/secret-crypto';
import { idTime, secretMediaPage } from './secret-media';

const file = (name: string, type: string, voice?: SecretAttachment['voice']): SecretAttachment => ({
  url: `/api/secret/uploads/${name}`,
  key: 'a2V5',
  iv: 'aXY=',
  name,
  type,
  size: 10,
  ...(voice ? { voice } : {}),
});
// UUIDv7 ids: the first 48 bits are the time, so they sort by it.
const id = (n: number) => `0190f0a0-${String(n).padStart(4, '0')}-7000-8000-000000000000`;
const plain = (n: number, text: string, attachments?: SecretAttachment[], edited?: string): SecretPlaintext => ({
  messageId: id(n),
  conversationId: 'c1',
  senderUserId: 'u2',
  senderDeviceId: 'd2',
  epoch: 1,
  envelope: { v: 2, kind: 'text', text, ...(attachments ? { attachments } : {}) },
  ...(edited ? { actions: { edit: { id: 'e', text: edited } } } : {}),
});

const kept = [
  plain(1, 'фото', [file('море.png', 'image/png')]),
  plain(2, 'договор', [file('договор.pdf', 'application/pdf')]),
  plain(3, 'карта https://example.org/map'),
  plain(4, '', [file('voice.webm', 'audio/webm', { durationMs: 2000, waveform: [1, 2] })]),
  plain(5, 'без ссылки', undefined, 'теперь https://example.net/'),
  { ...plain(6, ''), envelope: { v: 2, kind: 'reaction', targetId: id(1), emoji: '👍' } } as SecretPlaintext,
  plain(7, 'ещё фото', [file('лес.jpg', 'image/jpeg')]),
];

describe('a secret chat’s tabs from what this browser decrypted', () => {
  it('sorts each kind newest first, with the edited text', () => {
    const page = (kind: 'media' | 'files' | 'links' | 'voice') =>
      secretMediaPage(kept, { kind, before: null }, 30).entries.map((e) => e.messageId);
    expect(page('media')).toEqual([id(7), id(1)]);
    expect(page('files')).toEqual([id(2)]);
    expect(page('voice')).toEqual([id(4)]);
    expect(page('links')).toEqual([id(5), id(3)]);
    const [voice] = secretMediaPage(kept, { kind: 'voice', before: null }, 30).entries;
    expect(voice).toMatchObject({ durationMs: 2000, files: [{ name: 'voice.webm' }] });
    const [picture] = secretMediaPage(kept, { kind: 'media', before: null }, 30).entries;
    expect(picture?.pictures[0]).toMatchObject({ name: 'лес.jpg', secret: { name: 'лес.jpg' } });
    expect(secretMediaPage(kept, { kind: 'links', before: null }, 30).entries[0]?.links).toEqual([
      'https://example.net/',
    ]);
  });

  it('pages from the id the last page ended on', () => {
    const first = secretMediaPage(kept, { kind: 'media', before: null }, 1);
    expect(first).toMatchObject({ nextBefore: id(7) });
    const second = secretMediaPage(kept, { kind: 'media', before: first.nextBefore }, 1);
    expect(second.entries.map((e) => e.messageId)).toEqual([id(1)]);
    expect(second.nextBefore).toBeNull();
  });

  it('reads the time a UUIDv7 carries', () => {
    expect(idTime('0190f0a0-0000-7000-8000-000000000000')).toBe(new Date(0x0190f0a00000).toISOString());
  });
});
