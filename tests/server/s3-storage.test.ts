// Uploads and export archives in an S3-compatible bucket (s3rver on loopback): an image, a file and a voice
// message go in over HTTP and come back with the same headers and ranges, their bytes are in the bucket and not
// under DATA_DIR, a second server with its own empty data directory serves them from the bucket alone, and a
// missing or unreachable bucket stops the start with a message naming it.
import { BACKUPS_OFF } from '../../server/backups/schedule';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { DeleteBucketCommand, DeleteObjectCommand } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { backup, restore } from '../../server/admin/backup';
import { createServer } from '../../server/app';
import { loadConfig } from '../../server/config';
import { sqliteHandle } from '../../server/db/database';
import { s3Client, s3Storage } from '../../server/uploads/s3-storage';
import { client, startTestServer, storedUploads, type TestServer, usingPostgres } from './harness';
import { startS3, type TestS3 } from './s3';
import { befriend, type TestUser } from './socket-helpers';

const voiceFile = fs.readFileSync(path.join(__dirname, '../fixtures/voice-2s.webm'));
const LIMIT = 1024 * 1024;
const JWT_SECRET = 's3-storage-test-secret-0123456789abcdef';

let s3: TestS3;
let srv: TestServer;
let alice: TestUser;
let bob: TestUser;
let png: Buffer;

beforeAll(async () => {
  s3 = await startS3();
  srv = await startTestServer({ s3: s3.settings, uploadLimitBytes: LIMIT, jwtSecret: JWT_SECRET });
  const api = client(srv.url);
  [alice, bob] = await Promise.all([api.user('alice'), api.user('bob')]);
  await befriend(api, alice, bob);
  // A JPEG carrying EXIF, so re-encoding visibly changes the stored bytes.
  png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#33aa66' } })
    .jpeg()
    .withMetadata({ exif: { IFD0: { Copyright: 'secret camera' } } })
    .toBuffer();
});
afterAll(async () => {
  await srv?.close();
  await s3?.close();
});

async function upload(base: string, bytes: Buffer, name: string, token = alice.accessToken) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  const res = await fetch(`${base}/api/upload`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${token}` },
  });
  return { status: res.status, body: await res.json() };
}
const keyOf = (url: string) => url.split('/').pop() as string;
const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());
const uploadObjects = async () => (await s3.objects()).filter((k) => k.startsWith('uploads/'));

const uploaded: { image?: string; file?: string; voice?: string } = {};

describe('uploads in the bucket', () => {
  it('stores an image (re-encoded), a file and a voice message as objects under uploads/, none under DATA_DIR', async () => {
    const before = await uploadObjects();
    const image = await upload(srv.url, png, 'фото.jpg');
    expect(image.status).toBe(201);
    expect(image.body.attachment).toMatchObject({ type: 'IMAGE', width: 40, height: 30 });
    const file = await upload(srv.url, Buffer.from('отчёт за квартал\n'.repeat(50)), 'Отчёт.txt');
    expect(file.body.attachment).toMatchObject({ type: 'FILE', name: 'Отчёт.txt' });
    const voice = await upload(srv.url, voiceFile, 'voice.webm');
    expect(voice.body.attachment).toMatchObject({ type: 'AUDIO', size: voiceFile.length });
    [uploaded.image, uploaded.file, uploaded.voice] = [image.body.url, file.body.url, voice.body.url];

    // Exactly the three served keys were added: the image's original was replaced by its clean copy.
    const added = (await uploadObjects()).filter((k) => !before.includes(k)).sort();
    expect(added).toEqual([image.body.url, file.body.url, voice.body.url].map((u) => `uploads/${keyOf(u)}`).sort());
    const storedImage = await s3.object(`uploads/${keyOf(image.body.url)}`);
    expect(storedImage.length).toBe(image.body.attachment.size);
    expect(storedImage.includes(Buffer.from('secret camera'))).toBe(false);
    expect((await s3.object(`uploads/${keyOf(voice.body.url)}`)).equals(voiceFile)).toBe(true);
    // The server's own listing goes through the bucket too.
    expect(await storedUploads(srv)).toEqual(expect.arrayContaining(added.map((k) => k.slice('uploads/'.length))));

    const local = path.join(srv.config.dataDir, 'uploads');
    expect(fs.existsSync(local) ? fs.readdirSync(local) : []).toEqual([]);
  });

  it('serves them with the usual headers, and the voice message by ranges', async () => {
    const image = await fetch(srv.url + uploaded.image);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/jpeg');
    expect(image.headers.get('content-disposition')).toMatch(/^inline;/);
    expect(image.headers.get('x-content-type-options')).toBe('nosniff');
    expect(image.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    const imageBytes = await bytes(image);
    expect(imageBytes.equals(await s3.object(`uploads/${keyOf(uploaded.image as string)}`))).toBe(true);
    expect(image.headers.get('content-length')).toBe(String(imageBytes.length));

    const file = await fetch(srv.url + uploaded.file);
    expect(file.headers.get('content-type')).toBe('application/octet-stream');
    expect(file.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect((await bytes(file)).toString()).toBe('отчёт за квартал\n'.repeat(50));

    const part = await fetch(srv.url + uploaded.voice, { headers: { range: 'bytes=100-1099' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 100-1099/${voiceFile.length}`);
    expect(part.headers.get('content-length')).toBe('1000');
    expect((await bytes(part)).equals(voiceFile.subarray(100, 1100))).toBe(true);
    const tail = await fetch(srv.url + uploaded.voice, { headers: { range: 'bytes=-64' } });
    expect(tail.status).toBe(206);
    expect((await bytes(tail)).equals(voiceFile.subarray(voiceFile.length - 64))).toBe(true);
    const outside = await fetch(srv.url + uploaded.voice, { headers: { range: `bytes=${voiceFile.length + 10}-` } });
    expect(outside.status).toBe(416);

    // A key the database knows but the bucket lost is a 404, not a 500.
    const lost = await upload(srv.url, Buffer.from('скоро пропадёт'), 'lost.txt');
    await s3Storage(s3Client(s3.settings), s3.settings.bucket, 'uploads/').remove(keyOf(lost.body.url));
    expect((await fetch(srv.url + lost.body.url)).status).toBe(404);
  });

  it('keeps nothing of an upload over the limit or an undecodable image', async () => {
    const before = (await uploadObjects()).length;
    const big = await upload(srv.url, Buffer.alloc(LIMIT + 1024, 1), 'big.bin');
    expect(big.status).toBe(413);
    expect(big.body.message).toBe('Файл больше 1 МБ — такие файлы не отправляются');
    const broken = Buffer.concat([png.subarray(0, 200), Buffer.alloc(500, 0)]);
    const asFile = await upload(srv.url, broken, 'broken.jpg');
    expect(asFile.body.attachment.type).toBe('FILE');
    // Only the broken image, kept as a download; no clean copy or partial object is left.
    expect((await uploadObjects()).length).toBe(before + 1);
  });

  it('builds an export archive into exports/ and serves it from there', async () => {
    const started = await client(srv.url).post('/api/export', {}, alice.accessToken);
    expect(started.status).toBe(202);
    const id = started.body.export.id as string;
    const status = await vi.waitFor(
      async () => {
        const now = (await client(srv.url).get(`/api/export/${id}`, alice.accessToken)).body.export;
        expect(now.status, 'the export never finished').not.toBe('building');
        return now;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(status.status).toBe('ready');
    expect(await s3.objects()).toContain(`exports/${id}`);
    expect(fs.existsSync(path.join(srv.config.dataDir, 'exports', id))).toBe(false);
    const zip = await fetch(srv.url + status.downloadUrl);
    expect(zip.status).toBe(200);
    const body = await bytes(zip);
    expect(body.length).toBe(status.size);
    expect(body.equals(await s3.object(`exports/${id}`))).toBe(true);
    // One's own uploads are in the archive, read back from the bucket (ZIP stores names in clear).
    expect(body.includes(Buffer.from(`uploads/${keyOf(uploaded.voice as string)}-voice.webm`))).toBe(true);
  });
});

describe('several processes, one bucket', () => {
  it('a server with its own empty data directory serves and adds uploads through the bucket alone', async () => {
    let other: TestServer;
    let ownDir: string | null = null;
    if (usingPostgres()) {
      // Two live processes: one database, one bucket, nothing else shared.
      other = await startTestServer({ s3: s3.settings, databaseUrl: srv.config.databaseUrl, jwtSecret: JWT_SECRET });
    } else {
      // SQLite lives in DATA_DIR: the second server gets a copy of the database file only, no uploads.
      ownDir = fs.mkdtempSync(path.join(os.tmpdir(), 'messenger-s3-other-'));
      await sqliteHandle(srv.server.ctx.db)?.backup(path.join(ownDir, 'messenger.sqlite'));
      other = await startTestServer({ s3: s3.settings, dataDir: ownDir, jwtSecret: JWT_SECRET });
    }
    try {
      expect(fs.existsSync(path.join(other.config.dataDir, 'uploads'))).toBe(false);
      const voice = await fetch(other.url + uploaded.voice, { headers: { range: 'bytes=0-99' } });
      expect(voice.status).toBe(206);
      expect((await bytes(voice)).equals(voiceFile.subarray(0, 100))).toBe(true);
      const image = await fetch(other.url + uploaded.image);
      expect(image.headers.get('content-type')).toBe('image/jpeg');

      // What the second one stores is in the bucket, and the first reads it when they share the database.
      const fresh = await upload(other.url, Buffer.from('из второго процесса'), 'второй.txt', bob.accessToken);
      expect(fresh.status).toBe(201);
      const reader = usingPostgres() ? srv : other;
      expect((await bytes(await fetch(reader.url + fresh.body.url))).toString()).toBe('из второго процесса');
      expect(await s3.objects()).toContain(`uploads/${keyOf(fresh.body.url)}`);
      expect(fs.readdirSync(other.config.dataDir)).not.toContain('uploads');
    } finally {
      await other.close();
      if (ownDir) fs.rmSync(ownDir, { recursive: true, force: true });
    }
  });
});

describe('backup and restore', () => {
  it('archives the bucket’s uploads and writes them back into the bucket on restore', async () => {
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'messenger-s3-backup-'));
    try {
      const key = keyOf(uploaded.file as string);
      const original = await s3.object(`uploads/${key}`);
      const archive = path.join(work, 'backup.tar.gz');
      const made = await backup(srv.config, archive);
      expect(made.manifest.members.map((m) => m.path)).toContain(`uploads/${key}`);
      expect(made.manifest.counts.uploads).toBe((await uploadObjects()).length);

      // The bucket loses the object; a restore into an empty data directory puts it back, byte for byte.
      await s3Client(s3.settings).send(new DeleteObjectCommand({ Bucket: s3.settings.bucket, Key: `uploads/${key}` }));
      expect(await s3.objects()).not.toContain(`uploads/${key}`);
      const dataDir = path.join(work, 'restored');
      await restore({ ...srv.config, dataDir }, archive);
      expect((await s3.object(`uploads/${key}`)).equals(original)).toBe(true);
      expect(fs.existsSync(path.join(dataDir, 'uploads'))).toBe(false);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  });
});

describe('keys()', () => {
  it('lists one prefix page by page, leaving other prefixes and deeper names out', async () => {
    const storage = s3Storage(s3Client(s3.settings), s3.settings.bucket, 'listing/', 2);
    const names = ['a1', 'b2', 'c3', 'd4', 'e5'];
    for (const n of names) await storage.write(n, Readable.from([Buffer.from(n)]));
    await s3Storage(s3Client(s3.settings), s3.settings.bucket, 'listing/deeper/').write('x', Readable.from(['x']));
    const listed: string[] = [];
    for await (const k of storage.keys()) listed.push(k);
    expect(listed.sort()).toEqual(names);
    expect(await storage.read('nope')).toBeNull();
    await storage.remove('a1');
    await storage.remove('a1');
    const after: string[] = [];
    for await (const k of storage.keys()) after.push(k);
    expect(after.sort()).toEqual(names.slice(1));
  });
});

describe('writes', () => {
  it('streams a body over one part as a multipart upload and reads any range of it back', async () => {
    const storage = s3Storage(s3Client(s3.settings), s3.settings.bucket, 'big/');
    const body = Buffer.alloc(9 * 1024 * 1024 + 123);
    for (let i = 0; i < body.length; i += 4096) body[i] = i % 251;
    const chunks = Array.from({ length: Math.ceil(body.length / 65536) }, (_, i) =>
      body.subarray(i * 65536, (i + 1) * 65536),
    );
    await storage.write('whole', Readable.from(chunks));
    const start = 8 * 1024 * 1024 - 10;
    const part = await storage.read('whole', { start, end: start + 19 });
    const got: Buffer[] = [];
    for await (const c of part as Readable) got.push(c as Buffer);
    expect(Buffer.concat(got).equals(body.subarray(start, start + 20))).toBe(true);
    expect((await s3.object('big/whole')).equals(body)).toBe(true);
  });

  it('leaves no object when the body fails, small or multipart, and rethrows the body’s own error', async () => {
    const storage = s3Storage(s3Client(s3.settings), s3.settings.bucket, 'failing/');
    async function* failing(bytes: number) {
      for (let sent = 0; sent < bytes; sent += 1024 * 1024) yield Buffer.alloc(1024 * 1024, 1);
      throw new Error('client gone');
    }
    await expect(storage.write('small', Readable.from(failing(1024 * 1024)))).rejects.toThrow('client gone');
    await expect(storage.write('large', Readable.from(failing(10 * 1024 * 1024)))).rejects.toThrow('client gone');
    expect((await s3.objects()).filter((k) => k.startsWith('failing/'))).toEqual([]);
    expect(await storage.read('large')).toBeNull();
  });

  it('answers an upload the store refuses with 500, keeping nothing, never blaming the client', async () => {
    const own = await startS3('refusing-bucket');
    const refusing = await startTestServer({ s3: own.settings });
    try {
      const user = await client(refusing.url).user('carol');
      // The bucket goes away after the start-up check (it is empty: the probe was deleted).
      const admin = s3Client(own.settings);
      await admin.send(new DeleteBucketCommand({ Bucket: own.settings.bucket }));
      admin.destroy();
      const res = await upload(refusing.url, Buffer.from('никуда'), 'a.txt', user.accessToken);
      expect(res.status).toBe(500);
      const rows = await refusing.server.ctx.db.selectFrom('uploads').select('id').execute();
      expect(rows).toEqual([]);
    } finally {
      await refusing.close();
      await own.close();
    }
  });
});

describe('start-up check', () => {
  const start = (s3Settings: TestS3['settings']) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'messenger-s3-refused-'));
    return createServer(
      loadConfig(
        {},
        { dataDir, databaseUrl: null, clientDir: null, logLevel: 'silent', s3: s3Settings, backup: BACKUPS_OFF },
      ),
    ).finally(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  };

  it('refuses a bucket that does not exist, naming it and the endpoint', async () => {
    await expect(start({ ...s3.settings, bucket: 'no-such-bucket' })).rejects.toThrow(
      `S3 bucket "no-such-bucket" at ${s3.settings.endpoint}: HeadBucket failed: the bucket does not exist`,
    );
  });

  it('refuses an endpoint nobody answers on', async () => {
    // A port that was just free: nothing listens there.
    const closed = await startS3('closed-bucket');
    const endpoint = closed.settings.endpoint as string;
    await closed.close();
    await expect(start({ ...closed.settings, endpoint })).rejects.toThrow(
      new RegExp(`^S3 bucket "closed-bucket" at ${endpoint.replace(/\./g, '\\.')}: HeadBucket failed`),
    );
  });

  it('reads the S3_* variables, and refuses inconsistent ones', () => {
    const env = { S3_BUCKET: 'beseda', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_ACCESS_KEY_ID: 'k' };
    expect(() => loadConfig(env)).toThrow('S3_ACCESS_KEY_ID и S3_SECRET_ACCESS_KEY задаются вместе');
    expect(loadConfig({ ...env, S3_SECRET_ACCESS_KEY: 's' }).s3).toEqual({
      endpoint: 'http://127.0.0.1:9000',
      bucket: 'beseda',
      region: 'us-east-1',
      accessKeyId: 'k',
      secretAccessKey: 's',
      forcePathStyle: true,
    });
    expect(loadConfig({ S3_BUCKET: 'beseda', S3_REGION: 'eu-central-1' }).s3).toMatchObject({
      endpoint: null,
      region: 'eu-central-1',
      forcePathStyle: false,
    });
    expect(loadConfig({ S3_BUCKET: 'b', S3_FORCE_PATH_STYLE: '1' }).s3?.forcePathStyle).toBe(true);
    expect(loadConfig({}).s3).toBeNull();
    expect(() => loadConfig({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow('S3_ENDPOINT задан без S3_BUCKET');
    expect(() => loadConfig({ S3_BUCKET: 'b', S3_ENDPOINT: 'minio:9000' })).toThrow(
      'Неверное значение S3_ENDPOINT: «minio:9000»',
    );
    expect(() => loadConfig({ S3_BUCKET: 'b', S3_FORCE_PATH_STYLE: 'maybe' })).toThrow(
      'Неверное значение S3_FORCE_PATH_STYLE: «maybe»',
    );
  });
});
