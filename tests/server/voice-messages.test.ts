// Voice messages over real HTTP: the recording (tests/fixtures/voice-2s.webm, made by Chromium's MediaRecorder
// from its fake microphone) is sniffed as audio, served inline with Range support, and sent as a VOICE message
// whose duration and waveform the server checks against the contract and the file.
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VOICE } from '../../src/contract/limits';
import { client, startTestServer, type TestServer } from './harness';
import { type Api, befriend, type TestUser } from './socket-helpers';

const voiceFile = fs.readFileSync(path.join(__dirname, '../fixtures/voice-2s.webm'));
let srv: TestServer;
let api: Api;
let alice: TestUser;
let bob: TestUser;
let ab: string;

beforeAll(async () => {
  srv = await startTestServer({ uploadLimitBytes: 8 * 1024 * 1024 });
  api = client(srv.url);
  [alice, bob] = await Promise.all([api.user('alice'), api.user('bob')]);
  await befriend(api, alice, bob);
  ab = (await api.post('/api/conversations/with', { userId: bob.user.id }, alice.accessToken)).body.conversation.id;
});
afterAll(() => srv.close());

async function upload(bytes: Buffer, name = 'voice.webm', type = 'audio/webm') {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  const res = await fetch(`${srv.url}/api/upload`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${alice.accessToken}` },
  });
  return { status: res.status, body: await res.json() };
}

const waveform = Array.from({ length: 60 }, (_, i) => (i * 7) % 101);
const sendVoice = (url: string, voice: unknown, extra: Record<string, unknown> = {}) =>
  api.post(
    '/api/conversations/send',
    { conversationId: ab, type: 'VOICE', content: '', attachments: [{ url, type: 'AUDIO' }], voice, ...extra },
    alice.accessToken,
  );
const history = async () =>
  (await api.get(`/api/conversations/${ab}/messages`, bob.accessToken)).body.messages as { id: string; type: string }[];

describe('audio uploads', () => {
  it('sniffs a WebM/Opus recording as AUDIO and serves it inline as audio/webm, accepting ranges', async () => {
    const res = await upload(voiceFile, 'запись.bin', 'application/octet-stream');
    expect(res.status).toBe(201);
    expect(res.body.attachment).toMatchObject({ type: 'AUDIO', size: voiceFile.length });
    const got = await fetch(srv.url + res.body.url);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('audio/webm');
    expect(got.headers.get('accept-ranges')).toBe('bytes');
    expect(got.headers.get('content-disposition')).toMatch(/^inline;/);
    expect(Buffer.from(await got.arrayBuffer()).equals(voiceFile)).toBe(true);
  });

  it('answers Range requests with 206 and exactly the bytes asked for', async () => {
    const { body } = await upload(voiceFile);
    const part = await fetch(srv.url + body.url, { headers: { range: 'bytes=100-1099' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-1099/${voiceFile.length}`);
    expect(part.headers.get('content-length')).toBe('1000');
    expect(Buffer.from(await part.arrayBuffer()).equals(voiceFile.subarray(100, 1100))).toBe(true);

    const open = await fetch(srv.url + body.url, { headers: { range: 'bytes=5000-' } });
    expect(open.status).toBe(206);
    expect(Buffer.from(await open.arrayBuffer()).equals(voiceFile.subarray(5000))).toBe(true);

    const suffix = await fetch(srv.url + body.url, { headers: { range: 'bytes=-64' } });
    expect(suffix.status).toBe(206);
    expect(suffix.headers.get('content-range')).toBe(
      `bytes ${voiceFile.length - 64}-${voiceFile.length - 1}/${voiceFile.length}`,
    );
    expect(Buffer.from(await suffix.arrayBuffer()).equals(voiceFile.subarray(-64))).toBe(true);

    const beyond = await fetch(srv.url + body.url, { headers: { range: `bytes=${voiceFile.length}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${voiceFile.length}`);
  });

  it('keeps a WebM with a video track a plain download', async () => {
    const video = Buffer.from(voiceFile);
    video.write('V_VP8', voiceFile.indexOf('A_OPUS') + 40, 'latin1');
    const res = await upload(video);
    expect(res.body.attachment.type).toBe('FILE');
    const got = await fetch(srv.url + res.body.url, { headers: { range: 'bytes=0-9' } });
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('application/octet-stream');
  });
});

describe('VOICE messages', () => {
  it('stores the duration and waveform and returns them live and in the history', async () => {
    const { body } = await upload(voiceFile);
    const res = await sendVoice(body.url, { durationMs: 2000, waveform });
    expect(res.status).toBe(200);
    expect(res.body.message).toMatchObject({ type: 'VOICE', voice: { durationMs: 2000, waveform } });
    expect(res.body.message.attachments[0]).toMatchObject({ url: body.url, type: 'AUDIO' });
    const stored = (await history()).find((m) => m.id === res.body.message.id);
    expect(stored).toMatchObject({ type: 'VOICE', voice: { durationMs: 2000, waveform } });
  });

  const refused: [string, unknown, RegExp][] = [
    [
      'a waveform of more than 100 peaks',
      { durationMs: 2000, waveform: Array(VOICE.waveformMax + 1).fill(5) },
      /Волна — не больше 100/,
    ],
    ['an empty waveform', { durationMs: 2000, waveform: [] }, /Волна не может быть пустой/],
    ['a peak above 100', { durationMs: 2000, waveform: [1, 101] }, /Пик волны — до 100/],
    ['a negative peak', { durationMs: 2000, waveform: [-1] }, /Пик волны — от 0/],
    ['a fractional peak', { durationMs: 2000, waveform: [1.5] }, /voice\.waveform/],
    ['a duration over 5 minutes', { durationMs: 300_001, waveform }, /не длиннее 5 минут/],
    [
      'a duration far longer than the file holds',
      { durationMs: 200_000, waveform },
      /Длительность не соответствует аудиофайлу/,
    ],
    ['no voice details', undefined, /длительность и волна/],
  ];
  for (const [what, voice, message] of refused) {
    it(`refuses ${what} with a Russian 400 and keeps nothing`, async () => {
      const { body } = await upload(voiceFile);
      const before = (await history()).length;
      const res = await sendVoice(body.url, voice);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(message);
      expect((await history()).length).toBe(before);
    });
  }

  it('refuses a voice message whose file is not audio', async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    for (const bytes of [png, Buffer.from('это не звук, а текст '.repeat(300))]) {
      const { body } = await upload(bytes, 'voice.webm');
      const res = await sendVoice(body.url, { durationMs: 2000, waveform });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('Вложение голосового сообщения не является аудиозаписью');
    }
  });

  it('refuses a recording over the voice size limit', async () => {
    const big = Buffer.concat([voiceFile, Buffer.alloc(VOICE.maxBytes)]);
    const { body } = await upload(big);
    expect(body.attachment.type).toBe('AUDIO');
    const res = await sendVoice(body.url, { durationMs: 200_000, waveform });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/Голосовое сообщение слишком большое/);
  });

  it('refuses voice details on another type, two recordings, and a CALL entry posted by a client', async () => {
    const { body } = await upload(voiceFile);
    const other = await upload(voiceFile);
    const onFile = await api.post(
      '/api/conversations/send',
      {
        conversationId: ab,
        type: 'FILE',
        content: '',
        attachments: [{ url: body.url, type: 'FILE' }],
        voice: { durationMs: 2000, waveform },
      },
      alice.accessToken,
    );
    expect(onFile.status).toBe(400);
    expect(onFile.body.message).toBe('Длительность и волна — только у голосового сообщения');
    const two = await sendVoice(
      body.url,
      { durationMs: 2000, waveform },
      {
        attachments: [
          { url: body.url, type: 'AUDIO' },
          { url: other.body.url, type: 'AUDIO' },
        ],
      },
    );
    expect(two.status).toBe(400);
    expect(two.body.message).toBe('Голосовое сообщение — ровно одна аудиозапись');
    const call = await api.post(
      '/api/conversations/send',
      { conversationId: ab, type: 'CALL', content: 'звонок' },
      alice.accessToken,
    );
    expect(call.status).toBe(400);
    expect((await history()).some((m) => m.type === 'CALL')).toBe(false);
  });
});
