// A secret message's attachments in the bubble, over a real round trip of the sealing (a file encrypted by
// uploadSecretFile, kept by an in-memory stand-in for the server's storage): a picture drawn from an object URL
// that goes when the bubble does, a file saved with its bytes on demand, a voice message in the given player, and
// «Не удалось расшифровать вложение» when one byte of the stored ciphertext changed. And the list's words for them.
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SecretFileTransfer } from '../../services/composer/upload';
import type { SecretAttachment } from '../../machines/secretChats/secretChat/secretChat.protocol';
import {
  forgetAllSealed,
  openSecretAttachment,
  sealedAttachments,
  setSecretFileTransfer,
  uploadSecretFile,
} from '../../services/secretChats/secret-files';
import { ViewPortsProvider } from '../app/RuntimeContext';
import { SecretAttachments, type VoicePlayerView } from './SecretAttachments';
import { secretWords } from './useSecretTilePreview';

const stored = new Map<string, Uint8Array>();
let n = 0;
const transfer: SecretFileTransfer = {
  async upload(ciphertext) {
    const key = (n++).toString(16).padStart(32, '0');
    stored.set(`/secret/uploads/${key}`, new Uint8Array(await ciphertext.arrayBuffer()));
    return { url: `/api/secret/uploads/${key}`, size: ciphertext.size };
  },
  async download(path) {
    const bytes = stored.get(path);
    if (!bytes) throw new Error('404');
    // A copy in a buffer of Node's own: jsdom's realm makes buffers Node's WebCrypto refuses.
    const copy = Buffer.alloc(bytes.length);
    copy.set(bytes);
    return copy.buffer;
  },
};

let made: Blob[] = [];
const revoked: string[] = [];
beforeEach(() => {
  made = [];
  revoked.length = 0;
  setSecretFileTransfer(transfer);
  URL.createObjectURL = vi.fn((blob: Blob) => {
    made.push(blob);
    return `blob:test/${made.length}`;
  });
  URL.revokeObjectURL = vi.fn((url: string) => void revoked.push(url));
});
afterEach(cleanup);

async function sealed(bytes: Uint8Array<ArrayBuffer>, name: string, type: string): Promise<SecretAttachment> {
  const { url } = await uploadSecretFile(transfer, 'c1', Object.assign(new Blob([bytes], { type }), { name }));
  const [a] = sealedAttachments([url]) ?? [];
  if (!a) throw new Error('no key kept');
  return a;
}

describe('SecretAttachments', () => {
  it('draws a picture from its decrypted bytes and lets the object URL go when unmounted', async () => {
    const a = await sealed(new Uint8Array([137, 80, 78, 71, 1, 2, 3]), 'горы.png', 'image/png');
    const view = render(
      <ViewPortsProvider value={{ openSecretAttachment }}>
        <SecretAttachments attachments={[a]} />
      </ViewPortsProvider>,
    );
    const img = await screen.findByRole('img', { name: 'горы.png' });
    expect(img.getAttribute('src')).toBe('blob:test/1');
    expect(made[0]?.type).toBe('image/png');
    expect(Array.from(new Uint8Array(await (made[0] as Blob).arrayBuffer()))).toEqual([137, 80, 78, 71, 1, 2, 3]);
    view.unmount();
    expect(revoked).toEqual(['blob:test/1']);
  });

  it('opens a picture in the lightbox by its place among the message’s pictures (a file between does not count)', async () => {
    const first = await sealed(new Uint8Array([137, 80, 78, 71, 1]), 'первая.png', 'image/png');
    const file = await sealed(new Uint8Array([1, 2, 3]), 'отчёт.pdf', 'application/pdf');
    const second = await sealed(new Uint8Array([255, 216, 255, 1]), 'вторая.jpg', 'image/jpeg');
    const opened: number[] = [];
    render(
      <ViewPortsProvider value={{ openSecretAttachment }}>
        <SecretAttachments attachments={[first, file, second]} onOpenImage={(i) => opened.push(i)} />
      </ViewPortsProvider>,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Открыть изображение вторая.jpg' }));
    fireEvent.click(screen.getByRole('button', { name: 'Открыть изображение первая.png' }));
    expect(opened).toEqual([1, 0]);
  });

  it('says so when the stored ciphertext was changed', async () => {
    const a = await sealed(new Uint8Array(100).fill(7), 'план.png', 'image/png');
    const path = a.url.replace(/^\/api/, '');
    const bytes = stored.get(path) as Uint8Array;
    bytes[10] = (bytes[10] as number) ^ 1;
    render(
      <ViewPortsProvider value={{ openSecretAttachment }}>
        <SecretAttachments attachments={[a]} />
      </ViewPortsProvider>,
    );
    expect((await screen.findByRole('alert')).textContent).toBe('Не удалось расшифровать вложение');
    expect(made).toHaveLength(0);
  });

  it('shows a file’s name and size and decrypts it only when saved, as opaque bytes', async () => {
    const text = new TextEncoder().encode('<script>alert(1)</script>');
    const a = await sealed(text, 'страница.html', 'text/html');
    render(
      <ViewPortsProvider value={{ openSecretAttachment }}>
        <SecretAttachments attachments={[a]} />
      </ViewPortsProvider>,
    );
    const button = screen.getByRole('button', { name: `Скачать файл страница.html, ${text.length} Б` });
    expect(made).toHaveLength(0);
    await act(async () => {
      fireEvent.click(button);
    });
    await waitFor(() => expect(made).toHaveLength(1));
    expect(made[0]?.type).toBe('application/octet-stream');
    expect(Array.from(new Uint8Array(await (made[0] as Blob).arrayBuffer()))).toEqual(Array.from(text));
  });

  it('plays a voice message in the given player with the length it carried', async () => {
    const a = await sealed(new Uint8Array(400).fill(1), 'voice.webm', 'audio/webm');
    const [voice] = sealedAttachments([a.url], { durationMs: 2400, waveform: [1, 5, 9] }) ?? [];
    const seen: { url: string | null; durationMs: number }[] = [];
    const Player: VoicePlayerView = (p) => {
      seen.push({ url: p.url, durationMs: p.durationMs });
      return <span>плеер</span>;
    };
    render(
      <ViewPortsProvider value={{ openSecretAttachment }}>
        <SecretAttachments attachments={[voice as SecretAttachment]} voicePlayer={Player} />
      </ViewPortsProvider>,
    );
    await waitFor(() => expect(seen.at(-1)).toEqual({ url: 'blob:test/1', durationMs: 2400 }));
    expect(seen[0]).toEqual({ url: null, durationMs: 2400 });
    expect(made[0]?.type).toBe('audio/webm');
  });
});

describe('the keys of files not sent yet', () => {
  it('are in memory only until sent, and go at sign-out', async () => {
    const a = await sealed(new Uint8Array(50).fill(3), 'a.bin', 'application/octet-stream');
    const b = await sealed(new Uint8Array(50).fill(4), 'b.bin', '');
    expect(b.type).toBe('application/octet-stream');
    expect(sealedAttachments([a.url, b.url])).toHaveLength(2);
    expect(sealedAttachments([a.url, '/api/secret/uploads/ffffffffffffffffffffffffffffffff'])).toBeNull();
    forgetAllSealed();
    expect(sealedAttachments([a.url])).toBeNull();
  });
});

describe('secretWords', () => {
  const att = (over: Partial<SecretAttachment>): SecretAttachment => ({
    url: '/api/secret/uploads/0123456789abcdef0123456789abcdef',
    key: 'k',
    iv: 'i',
    name: 'отчёт.pdf',
    type: 'application/pdf',
    size: 1,
    ...over,
  });
  it('names a picture, a file, files and a voice message as the list does for plaintext ones', () => {
    expect(secretWords('привет', undefined)).toBe('привет');
    expect(secretWords('', [att({ type: 'image/png' })])).toBe('Фото');
    expect(secretWords('вид  с горы', [att({ type: 'image/jpeg' })])).toBe('Фото, вид с горы');
    expect(secretWords('', [att({})])).toBe('Файл: отчёт.pdf');
    expect(secretWords('', [att({}), att({ type: 'image/png' })])).toBe('Файлы: 2');
    expect(secretWords('', [att({ voice: { durationMs: 63_400, waveform: [1] } })])).toBe('Голосовое сообщение 1:03');
  });
});
