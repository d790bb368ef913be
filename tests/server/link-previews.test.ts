// Link previews (server/previews, docs/behaviour.md §10.30 Link previews) against a local fixture site that counts
// every request it gets: the attempts to turn the preview fetcher against the server's own network are refused
// before any byte reaches the private target, big and slow pages are cut, and the cards reach members only.
// Real server, SQLite or PostgreSQL (TEST_PG_URL).
import dns from 'node:dns';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HostResolver, LinkPreviewSettings } from '../../server/config';
import { type FetchPolicy, FetchRefused, guardedGet, isPublicAddress } from '../../server/previews/guarded-fetch';
import { cleanText, firstLink } from '../../server/previews/link-previews';
import { client, startTestServer, type TestServer } from './harness';
import { type Api, befriend, closeAll, connect, next, recorder, roundTrip, type TestUser } from './socket-helpers';

/** Requests the fixture got, by path. */
const hits = new Map<string, number>();
const hit = (path: string) => hits.get(path) ?? 0;
let fixture: http.Server;
let port: number;
let png: Buffer;

const page = (head: string) => `<!doctype html><html><head>${head}</head><body>…</body></html>`;

function route(req: http.IncomingMessage, res: http.ServerResponse) {
  const path = (req.url ?? '/').split('?')[0];
  hits.set(path, hit(path) + 1);
  const redirect = (to: string) => res.writeHead(302, { location: to }).end();
  switch (path) {
    case '/article':
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(
        page(
          '<title>Запасной</title><meta property="og:title" content="Статья о погоде">' +
            '<meta property="og:description" content="Дожди &amp; ветер">' +
            '<meta property="og:site_name" content="Вестник"><meta property="og:image" content="/picture.png">',
        ),
      );
    case '/picture.png':
      res.writeHead(200, { 'content-type': 'image/png' });
      return res.end(png);
    case '/secret':
    case '/secret.png':
      // The private target: no test may ever reach it.
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end(page('<meta property="og:title" content="внутренний">'));
    case '/to-loopback':
      return redirect(`http://127.0.0.1:${port}/secret`);
    case '/to-mapped':
      return redirect(`http://[::ffff:127.0.0.1]:${port}/secret`);
    case '/to-metadata':
      return redirect('http://169.254.169.254/latest/meta-data/');
    case '/to-localhost':
      return redirect(`http://localhost:${port}/secret`);
    case '/to-rebind':
      return redirect(`http://rebind.test:${port}/secret`);
    case '/loop':
      return redirect('/loop');
    case '/private-image':
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end(
        page(
          `<meta property="og:title" content="Картинка внутри"><meta property="og:image" content="http://127.0.0.1:${port}/secret.png">`,
        ),
      );
    case '/huge': {
      // 50 MB announced and offered; only the first MiB may be read.
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(50 * 1024 * 1024) });
      res.write(page('<meta property="og:title" content="Большая страница">'));
      const chunk = Buffer.alloc(64 * 1024, 'a');
      let sent = 0;
      const pump = () => {
        while (sent < 50 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => hits.set('/huge:bytes', sent));
      return pump();
    }
    case '/slow':
      // Headers and a start, then nothing: the deadline ends it.
      res.writeHead(200, { 'content-type': 'text/html' });
      return void res.write('<!doctype html><html><head>');
    case '/entities':
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end(page(`<meta property="og:title" content="${'&amp;'.repeat(10_000)}">`));
    case '/json':
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end('{"title":"нет"}');
    default:
      res.writeHead(404).end();
  }
}

/** fixture.test (allow-listed) and rebind.test both are 127.0.0.1; other names go to the system's resolver. */
const resolve: HostResolver = async (host) =>
  host === 'fixture.test' || host === 'rebind.test'
    ? [{ address: '127.0.0.1', family: 4 }]
    : dns.promises.lookup(host, { all: true });

const settings = (): LinkPreviewSettings => ({
  enabled: true,
  allowHosts: ['fixture.test'],
  ports: [80, 443, port],
  timeoutMs: 400,
  resolve,
});
const site = (path: string) => `http://fixture.test:${port}${path}`;

beforeAll(async () => {
  png = await sharp({ create: { width: 40, height: 20, channels: 3, background: '#3060a0' } })
    .png()
    .toBuffer();
  fixture = http.createServer(route);
  await new Promise<void>((r) => fixture.listen(0, '127.0.0.1', r));
  port = (fixture.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => fixture.close(() => r())));

describe('the address guard', () => {
  it.each([
    ['127.0.0.1', false],
    ['10.1.2.3', false],
    ['172.16.0.1', false],
    ['192.168.1.1', false],
    ['100.64.0.1', false],
    ['169.254.169.254', false],
    ['0.0.0.0', false],
    ['224.0.0.1', false],
    ['255.255.255.255', false],
    ['::1', false],
    ['::', false],
    ['::ffff:127.0.0.1', false],
    ['::ffff:7f00:1', false],
    ['fd00::1', false],
    ['fe80::1', false],
    ['ff02::1', false],
    ['64:ff9b::7f00:1', false],
    ['2002:7f00:1::', false],
    ['93.184.216.34', true],
    ['::ffff:93.184.216.34', true],
    ['2606:2800:220:1:248:1893:25c8:1946', true],
  ])('%s is public: %s', (ip, expected) => {
    expect(isPublicAddress(ip)).toBe(expected);
  });

  it('takes the first link written with http(s) and cuts texts', () => {
    expect(firstLink('см. example.org и https://Пример.рф/путь#якорь, потом http://b.example')).toBe(
      'https://xn--e1afmkfd.xn--p1ai/%D0%BF%D1%83%D1%82%D1%8C',
    );
    expect(firstLink('ftp://x.example mailto:a@b.example')).toBeNull();
    expect(cleanText('  a\u0000b\n\n c  ', 10)).toBe('a b c');
    expect([...(cleanText('слово '.repeat(100), 20) ?? '')].length).toBeLessThanOrEqual(20);
  });
});

describe('guardedGet against the fixture', () => {
  const policy = (): FetchPolicy => ({
    allowHosts: ['fixture.test'],
    ports: [80, 443, port],
    maxBytes: 1024 * 1024,
    maxRedirects: 3,
    resolve,
  });
  const html = (t: string) => t.startsWith('text/html');
  const get = (url: string, ms = 400) => guardedGet(url, policy(), html, 'text/html', AbortSignal.timeout(ms));
  const refusal = async (url: string) => {
    const err = await get(url).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FetchRefused);
    return (err as FetchRefused).reason;
  };

  it.each([
    ['a redirect to 127.0.0.1', '/to-loopback', 'address'],
    ['a redirect to [::ffff:127.0.0.1]', '/to-mapped', 'address'],
    ['a redirect to 169.254.169.254', '/to-metadata', 'address'],
    ['a redirect to localhost (resolves to loopback)', '/to-localhost', 'address'],
    ['a redirect to a public-looking name that resolves to 127.0.0.1', '/to-rebind', 'address'],
    ['endless redirects', '/loop', 'redirects'],
    ['JSON instead of HTML', '/json', 'type'],
  ])('refuses %s, and nothing reaches the target', async (_name, path, reason) => {
    const before = hit('/secret');
    expect(await refusal(site(path))).toBe(reason);
    expect(hit('/secret')).toBe(before);
    expect(hit('/secret')).toBe(0);
  });

  it('refuses private literals, other ports, other schemes and credentials before any socket', async () => {
    expect(await refusal(`http://127.0.0.1:${port}/secret`)).toBe('address');
    expect(await refusal(`http://[::ffff:7f00:1]:${port}/secret`)).toBe('address');
    expect(await refusal(`http://2130706433:${port}/secret`)).toBe('address');
    expect(await refusal(`http://0x7f.1:${port}/secret`)).toBe('address');
    expect(await refusal(`http://[fd00::1]:${port}/secret`)).toBe('address');
    expect(await refusal('http://100.64.0.1/')).toBe('address');
    expect(await refusal('http://fixture.test:8080/')).toBe('port');
    expect(await refusal('file:///etc/passwd')).toBe('scheme');
    expect(await refusal(`http://user:pw@fixture.test:${port}/article`)).toBe('credentials');
    expect(hit('/secret')).toBe(0);
  });

  it('reads at most 1 MiB of a 50 MB page and drops the connection', async () => {
    const got = await get(site('/huge'), 5_000);
    expect(got.cut).toBe(true);
    expect(got.body.length).toBe(1024 * 1024);
    await new Promise<void>((r) => (hits.has('/huge:bytes') ? r() : setImmediate(() => r())));
    // The socket's buffers hold a little more than a MiB; nowhere near the 50 MB offered.
    expect(hits.get('/huge:bytes') ?? 0).toBeLessThan(8 * 1024 * 1024);
  });

  it('gives up on a slow page at the deadline it is given', async () => {
    const started = Date.now();
    expect(await get(site('/slow'), 150).catch((e: FetchRefused) => e.reason)).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe('cards in conversations', () => {
  let srv: TestServer;
  let api: Api;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let group: string;

  beforeAll(async () => {
    srv = await startTestServer({ linkPreviews: settings() });
    api = client(srv.url);
    [alice, bob, carol] = await Promise.all([api.user('alice'), api.user('bob'), api.user('carol')]);
    await befriend(api, alice, bob);
    await befriend(api, alice, carol);
    const res = await api.post(
      '/api/conversations',
      { participantIds: [bob.user.id, carol.user.id], title: 'Ссылки', isGroup: true },
      alice.accessToken,
    );
    expect(res.status).toBe(200);
    group = res.body.conversation.id;
  });
  afterAll(() => srv.close());
  afterEach(closeAll);

  const say = async (content: string) => {
    const res = await api.post(
      '/api/conversations/send',
      { conversationId: group, type: 'TEXT', content },
      alice.accessToken,
    );
    expect(res.status).toBe(200);
    return res.body.message as { id: string; preview?: { status: string; title: string | null } };
  };
  /** The card as the members hear it when it arrives after the message. */
  const cardOf = async (content: string) => {
    const bobSocket = await connect(srv.url, bob.accessToken);
    const arrived = next<{ messageId: string; preview: any }>(bobSocket, 'message:preview', () => true, 3_000);
    const message = await say(content);
    expect(message.preview?.status).toBe('pending');
    const event = await arrived;
    expect(event.messageId).toBe(message.id);
    return { message, preview: event.preview };
  };

  it('fetches a page once, shows its card to members and serves its picture re-encoded', async () => {
    const { message, preview } = await cardOf(`Читали? ${site('/article')}`);
    expect(preview).toMatchObject({
      status: 'ready',
      siteName: 'Вестник',
      title: 'Статья о погоде',
      description: 'Дожди & ветер',
      image: { width: 40, height: 20 },
    });
    expect(preview.image.url).toMatch(/^\/uploads\/previews\/[0-9a-f]{32}$/);
    const img = await fetch(srv.url + preview.image.url);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/webp');
    expect(img.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await sharp(Buffer.from(await img.arrayBuffer())).metadata()).format).toBe('webp');
    expect((await fetch(`${srv.url}/uploads/previews/${'0'.repeat(32)}`)).status).toBe(404);

    // In history for every member; the same link again comes from the cache, with no second request.
    const history = await api.get(`/api/conversations/${group}/messages?limit=5`, carol.accessToken);
    expect(history.body.messages.find((m: { id: string }) => m.id === message.id).preview.title).toBe(
      'Статья о погоде',
    );
    const again = await say(`И ещё раз ${site('/article')}`);
    expect(again.preview).toMatchObject({ status: 'ready', title: 'Статья о погоде' });
    expect(hit('/article')).toBe(1);
    expect(hit('/picture.png')).toBe(1);
  });

  it('refuses an og:image on a private address and keeps the rest of the card', async () => {
    const { preview } = await cardOf(site('/private-image'));
    expect(preview).toMatchObject({ status: 'ready', title: 'Картинка внутри', image: null });
    expect(hit('/secret.png')).toBe(0);
  });

  it('shows nothing for a redirect into the private network; nothing reaches it', async () => {
    const { preview } = await cardOf(site('/to-loopback'));
    expect(preview.status).toBe('failed');
    expect(hit('/secret')).toBe(0);
  });

  it('cuts a title of 10,000 entities and a 50 MB page, and gives up on a slow one', async () => {
    expect((await cardOf(site('/entities'))).preview.title.length).toBeLessThanOrEqual(200);
    expect((await cardOf(site('/huge'))).preview.title).toBe('Большая страница');
    expect((await cardOf(site('/slow'))).preview.status).toBe('failed');
  });

  it('lets only the sender remove a card, and tells the members; a removed member hears nothing', async () => {
    const { message } = await cardOf(`${site('/article')}?remove`);
    const carolSocket = await connect(srv.url, carol.accessToken);
    const carolHears = recorder(carolSocket);
    const removedMember = await api.post(
      '/api/conversations/members/remove',
      { conversationId: group, userId: carol.user.id },
      alice.accessToken,
    );
    expect(removedMember.status).toBe(200);

    const byBob = await api.post('/api/messages/preview/remove', { messageId: message.id }, bob.accessToken);
    expect(byBob.status).toBe(403);
    expect(byBob.body.message).toBe('Убрать предпросмотр может только отправитель');
    const byCarol = await api.post('/api/messages/preview/remove', { messageId: message.id }, carol.accessToken);
    expect(byCarol.status).toBe(404);
    const bad = await api.post('/api/messages/preview/remove', { messageId: 'нет' }, alice.accessToken);
    expect(bad.status).toBe(400);
    expect(typeof bad.body.message).toBe('string');

    const bobSocket = await connect(srv.url, bob.accessToken);
    const heard = next<{ preview: unknown }>(bobSocket, 'message:preview', (p: any) => p.messageId === message.id);
    const byAlice = await api.post('/api/messages/preview/remove', { messageId: message.id }, alice.accessToken);
    expect(byAlice.status).toBe(200);
    expect((await heard).preview).toBeNull();
    const history = await api.get(`/api/conversations/${group}/messages?limit=10`, bob.accessToken);
    expect(history.body.messages.find((m: { id: string }) => m.id === message.id).preview).toBeUndefined();
    expect((await api.get(`/api/conversations/${group}/messages`, carol.accessToken)).status).toBe(404);

    // A card arriving after carol left goes to the members only.
    await cardOf(`${site('/article')}?later`);
    await roundTrip(carolSocket);
    expect(carolHears.events()).not.toContain('message:preview');
  });
});

describe('LINK_PREVIEWS=off', () => {
  it('fetches nothing', async () => {
    const srv = await startTestServer({ linkPreviews: { ...settings(), enabled: false } });
    try {
      const api = client(srv.url);
      const [a, b] = await Promise.all([api.user('offa'), api.user('offb')]);
      await befriend(api, a, b);
      const conv = await api.post(
        '/api/conversations',
        { participantIds: [b.user.id], title: 'Без карточек', isGroup: true },
        a.accessToken,
      );
      const before = hit('/article');
      const res = await api.post(
        '/api/conversations/send',
        { conversationId: conv.body.conversation.id, type: 'TEXT', content: `${site('/article')}?off` },
        a.accessToken,
      );
      expect(res.status).toBe(200);
      expect(res.body.message.preview).toBeUndefined();
      expect(hit('/article')).toBe(before);
    } finally {
      await srv.close();
    }
  });
});
