// Uploads over real multipart HTTP: size limit, sniffed types, path-safe names and the serving headers.
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestServer, storedUpload, storedUploads, type TestServer } from './harness';
import { type Api, befriend, type TestUser } from './socket-helpers';

const LIMIT = 256 * 1024;
let srv: TestServer;
let api: Api;
let alice: TestUser;
let bob: TestUser;
let png: Buffer;

beforeAll(async () => {
  srv = await startTestServer({ uploadLimitBytes: LIMIT });
  api = client(srv.url);
  [alice, bob] = await Promise.all([api.user('alice'), api.user('bob')]);
  await befriend(api, alice, bob);
  png = await sharp({ create: { width: 37, height: 21, channels: 3, background: '#3366ff' } })
    .png()
    .toBuffer();
});
afterAll(() => srv.close());

async function upload(
  bytes: Buffer | string,
  name: string,
  type: string,
  token: string | null = alice.accessToken,
  field = 'file',
) {
  const form = new FormData();
  form.append(field, new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)], { type }), name);
  const res = await fetch(`${srv.url}/api/upload`, {
    method: 'POST',
    body: form,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return { status: res.status, body: await res.json() };
}
const stored = () => storedUploads(srv);

describe('POST /api/upload', () => {
  it('needs a token', async () => {
    expect((await upload(png, 'a.png', 'image/png', null)).status).toBe(401);
  });

  it('sniffs an image from its bytes whatever the name and type say, and records its size', async () => {
    const res = await upload(png, '../../etc/passwd.txt', 'text/plain');
    expect(res.status).toBe(201);
    expect(res.body.url).toMatch(/^\/uploads\/[0-9a-f]{32}$/);
    // Images are stored re-encoded (hardening-uploads.test.ts): same pixels, recorded size is the stored one.
    const key = res.body.url.split('/').pop();
    const kept = await storedUpload(srv, key);
    expect(res.body.attachment).toEqual({
      url: res.body.url,
      type: 'IMAGE',
      name: 'passwd.txt',
      size: kept.length,
      width: 37,
      height: 21,
    });
    expect((await sharp(kept).raw().toBuffer()).equals(await sharp(png).raw().toBuffer())).toBe(true);

    const got = await fetch(srv.url + res.body.url);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(got.headers.get('x-content-type-options')).toBe('nosniff');
    expect(got.headers.get('content-disposition')).toMatch(/^inline; filename="passwd\.txt"/);
    expect(Buffer.from(await got.arrayBuffer()).equals(kept)).toBe(true);
  });

  it('never serves HTML, SVG or scripts inline, even when named and typed as an image', async () => {
    const cases: [string, string, string][] = [
      ['<!doctype html><html><script>alert(1)</script></html>', 'photo.png', 'image/png'],
      ['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', 'logo.svg', 'image/svg+xml'],
      ['alert(document.cookie)', 'app.js', 'text/javascript'],
    ];
    for (const [content, name, type] of cases) {
      const res = await upload(content, name, type);
      expect(res.status, name).toBe(201);
      expect(res.body.attachment.type).toBe('FILE');
      expect(res.body.attachment.width).toBeNull();
      const got = await fetch(srv.url + res.body.url);
      expect(got.headers.get('content-type')).toBe('application/octet-stream');
      expect(got.headers.get('content-disposition')).toMatch(/^attachment; /);
      expect(got.headers.get('x-content-type-options')).toBe('nosniff');
      expect(got.headers.get('content-security-policy')).toContain('sandbox');
    }
  });

  it('keeps a Cyrillic name readable, path-free and quote-safe in Content-Disposition', async () => {
    // Hand-made multipart: fetch's FormData would percent-escape the quotes and control characters itself.
    const boundary = 'x-boundary-42';
    const raw = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="..\\\\..\\\\Отчёт \\"2026\\"\u0007;.txt"\r\n` +
          'Content-Type: text/html\r\n\r\n',
      ),
      Buffer.from('отчёт'),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await fetch(`${srv.url}/api/upload`, {
      method: 'POST',
      body: raw,
      headers: {
        authorization: `Bearer ${alice.accessToken}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
    });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.attachment.name).toBe('Отчёт 2026;.txt');
    const got = await fetch(srv.url + body.url);
    const cd = got.headers.get('content-disposition') ?? '';
    expect(cd).toBe(
      `attachment; filename="_____ 2026_.txt"; filename*=UTF-8''${encodeURIComponent('Отчёт 2026;.txt')}`,
    );
  });

  it('refuses a file over the limit with 413, saying so in the words the client uses, and keeps nothing of it', async () => {
    const before = (await stored()).length;
    // Just over the limit: passes the Content-Length check, stopped while streaming.
    const streamed = await upload(Buffer.alloc(LIMIT + 1024, 1), 'big.bin', 'application/octet-stream');
    expect(streamed.status).toBe(413);
    expect(streamed.body.message).toBe('Файл больше 1 МБ — такие файлы не отправляются');
    // Far over: refused from the header before reading.
    const early = await upload(Buffer.alloc(LIMIT * 3, 1), 'huge.bin', 'application/octet-stream');
    expect(early.status).toBe(413);
    expect(early.body.message).toBe('Файл больше 1 МБ — такие файлы не отправляются');
    expect((await stored()).length).toBe(before);
    // keys() hides unfinished writes; on disk none may be left either.
    if (!srv.config.s3) {
      const names = fs.readdirSync(path.join(srv.config.dataDir, 'uploads'));
      expect(names.some((f) => f.endsWith('.part'))).toBe(false);
    }
    const ok = await upload(Buffer.alloc(LIMIT - 1024, 1), 'fits.bin', 'application/octet-stream');
    expect(ok.status).toBe(201);
    expect(ok.body.attachment.size).toBe(LIMIT - 1024);
  });

  it('takes one file per request and answers 4xx for extra parts', async () => {
    const two = new FormData();
    two.append('file', new Blob(['first']), 'a.txt');
    two.append('file', new Blob(['second']), 'b.txt');
    const res = await fetch(`${srv.url}/api/upload`, {
      method: 'POST',
      body: two,
      headers: { authorization: `Bearer ${alice.accessToken}` },
    });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toMatch(/один файл/);
    const textOnly = new FormData();
    textOnly.append('file', 'just text');
    const r2 = await fetch(`${srv.url}/api/upload`, {
      method: 'POST',
      body: textOnly,
      headers: { authorization: `Bearer ${alice.accessToken}` },
    });
    expect(r2.status).toBe(400);
    expect((await r2.json()).message).toMatch(/Прикрепите файл/);
    const elsewhere = new FormData();
    elsewhere.append('avatar', new Blob(['x']), 'x.txt');
    const r3 = await fetch(`${srv.url}/api/upload`, {
      method: 'POST',
      body: elsewhere,
      headers: { authorization: `Bearer ${alice.accessToken}` },
    });
    expect(r3.status).toBe(400);
    // Nothing of the refused requests is kept.
    const rows = await srv.server.ctx.db.selectFrom('uploads').select('original_name').execute();
    expect(rows.map((r) => r.original_name)).not.toContain('b.txt');
    expect((await stored()).length).toBe(rows.length);
  });

  it('answers 4xx for a missing file, another field, an empty file or a JSON body', async () => {
    expect((await upload(png, 'a.png', 'image/png', alice.accessToken, 'other')).status).toBe(400);
    expect((await upload('', 'empty.txt', 'text/plain')).status).toBe(400);
    const json = await api.post('/api/upload', { url: 'x' }, alice.accessToken);
    expect(json.status).toBeGreaterThanOrEqual(400);
    expect(json.status).toBeLessThan(500);
    expect(typeof json.body.message).toBe('string');
  });
});

describe('default limit', () => {
  it('is 25 MiB: a 3 MB file (past the 1 MB JSON body limit) streams through', async () => {
    const dflt = await startTestServer();
    try {
      expect(dflt.config.uploadLimitBytes).toBe(25 * 1024 * 1024);
      const u = await client(dflt.url).user('big');
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(3 * 1024 * 1024).fill(7)]), 'big.bin');
      const res = await fetch(`${dflt.url}/api/upload`, {
        method: 'POST',
        body: form,
        headers: { authorization: `Bearer ${u.accessToken}` },
      });
      expect(res.status).toBe(201);
      expect((await res.json()).attachment.size).toBe(3 * 1024 * 1024);
    } finally {
      await dflt.close();
    }
  });
});

describe('GET /uploads/<key>', () => {
  it('serves only server-generated keys', async () => {
    for (const p of [
      '/uploads/..%2Fsecrets.json',
      '/uploads/secrets.json',
      `/uploads/${'0'.repeat(32)}`,
      '/uploads/%2e%2e',
    ]) {
      const res = await fetch(srv.url + p);
      expect(res.status, p).toBe(404);
    }
  });
});

describe('attachments in messages', () => {
  it('sends an image message with the upload’s size, and refuses others’ or mistyped uploads', async () => {
    const conv = (await api.post('/api/conversations/with', { userId: bob.user.id }, alice.accessToken)).body
      .conversation.id;
    const img = (await upload(png, 'cat.png', 'image/png')).body;
    const doc = (await upload('hello', 'doc.txt', 'text/plain')).body;
    const res = await api.post(
      '/api/conversations/send',
      {
        conversationId: conv,
        type: 'IMAGE',
        content: '',
        attachments: [{ url: `${srv.url}${img.url}`, type: 'IMAGE' }],
      },
      alice.accessToken,
    );
    expect(res.status).toBe(200);
    expect(res.body.message.attachments).toEqual([
      { url: img.url, type: 'IMAGE', name: 'cat.png', size: img.attachment.size, width: 37, height: 21 },
    ]);
    const file = await api.post(
      '/api/conversations/send',
      {
        conversationId: conv,
        type: 'FILE',
        content: '',
        attachments: [
          { url: img.url, type: 'IMAGE' },
          { url: doc.url, type: 'FILE' },
        ],
      },
      alice.accessToken,
    );
    expect(file.status).toBe(200);
    expect(file.body.message.attachments.map((a: { name: string }) => a.name)).toEqual(['cat.png', 'doc.txt']);
    const notMine = await api.post(
      '/api/conversations/send',
      { conversationId: conv, type: 'IMAGE', content: '', attachments: [{ url: img.url, type: 'IMAGE' }] },
      bob.accessToken,
    );
    expect(notMine.status).toBe(400);
    const mistyped = await api.post(
      '/api/conversations/send',
      { conversationId: conv, type: 'IMAGE', content: '', attachments: [{ url: doc.url, type: 'IMAGE' }] },
      alice.accessToken,
    );
    expect(mistyped.status).toBe(400);
  });
});

describe('multipart elsewhere', () => {
  it('is parsed by the upload route only: every other route answers 415 with a message', async () => {
    const conv = await api.post('/api/conversations/with', { userId: bob.user.id }, alice.accessToken);
    const history = async () =>
      (await api.get(`/api/conversations/${conv.body.conversation.id}/messages`, alice.accessToken)).body.messages;
    const before = await history();
    const form = () => {
      const f = new FormData();
      f.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'a.png');
      f.append('userId', bob.user.id);
      f.append('conversationId', conv.body.conversation.id);
      f.append('text', 'hello');
      return f;
    };
    const paths = ['/api/conversations/with', '/api/conversations/send', '/api/auth/logout'];
    for (const p of paths) {
      const res = await fetch(srv.url + p, {
        method: 'POST',
        body: form(),
        headers: { authorization: `Bearer ${alice.accessToken}` },
      });
      expect({ p, status: res.status, body: await res.json() }).toEqual({
        p,
        status: 415,
        body: { message: 'Неподдерживаемый тип содержимого' },
      });
    }
    expect(await history()).toEqual(before);
    // The upload route still takes the same body.
    const res = await fetch(`${srv.url}/api/upload`, {
      method: 'POST',
      body: form(),
      headers: { authorization: `Bearer ${alice.accessToken}` },
    });
    expect(res.status).toBe(201);
  });
});
