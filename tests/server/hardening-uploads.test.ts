// Uploads from an attacker's side: malformed multipart is a 400 (not a 500) and keeps nothing, pixel floods are
// refused from the header, and images are re-encoded so EXIF (GPS, camera) and trailing bytes never reach readers.
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_MAX_PIXELS } from '../../server/uploads/images';
import { client, startTestServer, storedUploads, type TestServer } from './harness';
import type { TestUser } from './socket-helpers';

let srv: TestServer;
let alice: TestUser;

beforeAll(async () => {
  srv = await startTestServer();
  alice = await client(srv.url).user('alice');
});
afterAll(() => srv.close());

const stored = () => storedUploads(srv);
const rows = async () => (await srv.server.ctx.db.selectFrom('uploads').select('id').execute()).length;

async function upload(bytes: Buffer, name: string, type = 'application/octet-stream') {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), name);
  const res = await fetch(`${srv.url}/api/upload`, {
    method: 'POST',
    body: form,
    headers: { authorization: `Bearer ${alice.accessToken}` },
  });
  return { status: res.status, body: await res.json() };
}

async function served(url: string) {
  const res = await fetch(srv.url + url);
  return { type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

/** A valid PNG of a black 1-bit image: a few KB of deflate that decodes to width × height pixels. */
function floodPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  const raw = Buffer.alloc((1 + Math.ceil(width / 8)) * height); // filter byte 0 + zero pixels per row
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('malformed multipart', () => {
  const post = (contentType: string, body: string) =>
    fetch(`${srv.url}/api/upload`, {
      method: 'POST',
      body,
      headers: { authorization: `Bearer ${alice.accessToken}`, 'content-type': contentType },
    }).then(async (r) => ({ status: r.status, body: await r.json() }));

  it('answers 400 with a Russian message and keeps nothing', async () => {
    const [files, uploads] = [(await stored()).length, await rows()];
    const cases: [string, string][] = [
      ['multipart/form-data; boundary=x', '--x\r\nnot multipart'],
      [
        'multipart/form-data',
        '--x\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nabc\r\n--x--\r\n',
      ],
      [
        'multipart/form-data; boundary=x',
        '--x\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nabc, never ended',
      ],
      [`multipart/form-data; boundary=${'b'.repeat(300)}`, 'whatever'],
    ];
    for (const [type, body] of cases) {
      const res = await post(type, body);
      expect(res, type).toEqual({ status: 400, body: { message: 'Некорректное тело multipart/form-data' } });
    }
    expect((await stored()).length).toBe(files);
    expect(await rows()).toBe(uploads);
  });
});

describe('pixel limit', () => {
  it(`refuses an image declaring more than ${IMAGE_MAX_PIXELS / 1e6} megapixels with 413, before decoding it`, async () => {
    const bomb = floodPng(16000, 16000);
    expect(bomb.length).toBeLessThan(64 * 1024);
    const [files, uploads] = [(await stored()).length, await rows()];
    const started = Date.now();
    const res = await upload(bomb, 'bomb.png', 'image/png');
    expect(res).toEqual({ status: 413, body: { message: 'Изображение слишком большое: не больше 40 мегапикселей' } });
    expect(Date.now() - started).toBeLessThan(2000);
    // Just over the limit too; nothing of either is kept.
    expect((await upload(floodPng(8000, 5001), 'over.png', 'image/png')).status).toBe(413);
    expect((await stored()).length).toBe(files);
    expect(await rows()).toBe(uploads);
  });

  it('accepts an image of exactly the limit', { timeout: 60_000 }, async () => {
    const res = await upload(floodPng(8000, 5000), 'big.png', 'image/png');
    expect(res.status).toBe(201);
    expect(res.body.attachment).toMatchObject({ type: 'IMAGE', width: 8000, height: 5000 });
  });
});

describe('re-encoding', () => {
  it('strips EXIF (GPS position, camera) from a JPEG and applies its orientation to the pixels', async () => {
    const photo = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#2a6' } })
      .jpeg()
      .withExif({
        IFD0: { Make: 'SpyCam', Model: 'Model-X100' },
        IFD3: {
          GPSLatitudeRef: 'N',
          GPSLatitude: '55/1 45/1 21/1',
          GPSLongitudeRef: 'E',
          GPSLongitude: '37/1 37/1 4/1',
        },
      })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect(photo.includes('SpyCam')).toBe(true);
    const res = await upload(photo, 'photo.jpg', 'image/jpeg');
    expect(res.status).toBe(201);
    // Orientation 6 is a quarter turn: the 40×20 sensor image is shown 20 wide and 40 high.
    expect(res.body.attachment).toMatchObject({ type: 'IMAGE', width: 20, height: 40 });
    const got = await served(res.body.url);
    expect(got.type).toBe('image/jpeg');
    expect(res.body.attachment.size).toBe(got.bytes.length);
    const meta = await sharp(got.bytes).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect([meta.width, meta.height]).toEqual([20, 40]);
    for (const secret of ['SpyCam', 'Model-X100', 'GPS']) expect(got.bytes.includes(secret), secret).toBe(false);
  });

  it('drops bytes appended after the image and keeps the pixels', async () => {
    const png = await sharp({ create: { width: 9, height: 7, channels: 3, background: '#f40' } })
      .png()
      .toBuffer();
    const res = await upload(
      Buffer.concat([png, Buffer.from('<script>alert("hidden payload")</script>')]),
      'a.png',
      'image/png',
    );
    expect(res.status).toBe(201);
    expect(res.body.attachment).toMatchObject({ type: 'IMAGE', width: 9, height: 7 });
    const got = await served(res.body.url);
    expect(got.type).toBe('image/png');
    expect(got.bytes.includes('hidden payload')).toBe(false);
    const pixels = await sharp(got.bytes).raw().toBuffer();
    expect(pixels.equals(await sharp(png).raw().toBuffer())).toBe(true);
  });

  it('keeps WebP as WebP and an animated GIF animated, without comments', async () => {
    const webp = await sharp({ create: { width: 12, height: 8, channels: 3, background: '#09c' } })
      .webp()
      .withExif({ IFD0: { Artist: 'Secret Artist' } })
      .toBuffer();
    const w = await upload(webp, 'x.webp');
    expect((await served(w.body.url)).type).toBe('image/webp');
    expect((await served(w.body.url)).bytes.includes('Secret Artist')).toBe(false);
    // Two 1×1 frames, with a comment extension that must not survive.
    const frame = (lzw: number) => [0x21, 0xf9, 4, 0, 10, 0, 0, 0, 0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, lzw, 1, 0];
    const comment = [0x21, 0xfe, 11, ...Buffer.from('gps 55.7,37'), 0];
    const gif = Buffer.from([
      ...Buffer.from('GIF89a'),
      1,
      0,
      1,
      0,
      0x80,
      0,
      0,
      0,
      0,
      0,
      255,
      255,
      255,
      0x21,
      0xff,
      11,
      ...Buffer.from('NETSCAPE2.0'),
      3,
      1,
      0,
      0,
      0,
      ...comment,
      ...frame(0x44),
      ...frame(0x4c),
      0x3b,
    ]);
    const g = await upload(gif, 'anim.gif');
    expect(g.body.attachment).toMatchObject({ type: 'IMAGE', width: 1, height: 1 });
    const got = await served(g.body.url);
    expect(got.type).toBe('image/gif');
    expect(got.bytes.includes('gps 55.7')).toBe(false);
    expect((await sharp(got.bytes, { animated: true }).metadata()).pages).toBe(2);
  });
});
