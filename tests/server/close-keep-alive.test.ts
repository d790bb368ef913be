// Closing the server while a response is still on its way (server/http/close-keep-alive.ts): the response is
// delivered whole, and the keep-alive socket it leaves is released when it finishes, so the close does not wait
// for the keep-alive timeout (72 s).
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { expect, it, vi } from 'vitest';
import { client, startTestServer } from './harness';
import { secretChat } from './secret-helpers';
import { befriend } from './socket-helpers';

const SIZE = 24 * 1024 * 1024;

it('finishes a response begun before the close, then closes at once', async () => {
  const srv = await startTestServer({ uploadLimitBytes: SIZE });
  const api = client(srv.url);
  const [anna, boris] = await Promise.all(['anna', 'boris'].map((n) => api.user(n)));
  await befriend(api, anna, boris);
  const chat = await secretChat(api, anna, [boris]);
  const up = await fetch(`${srv.url}/api/secret/uploads?conversationId=${chat}`, {
    method: 'POST',
    body: randomBytes(SIZE),
    headers: { 'content-type': 'application/octet-stream', authorization: `Bearer ${anna.accessToken}` },
  });
  expect(up.status).toBe(201);
  const { url } = (await up.json()) as { url: string };

  // A keep-alive download that is not read yet: far more bytes than the socket buffers hold stay unsent.
  const socket = net.connect(srv.port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.pause();
  socket.write(
    `GET ${url} HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\nAuthorization: Bearer ${anna.accessToken}\r\n\r\n`,
  );
  // The response has begun: its first bytes wait in the paused socket's buffer (which fills to its high-water mark).
  await vi.waitFor(() => expect(socket.readableLength).toBeGreaterThan(0), { timeout: 5_000 });

  let closedAt = 0;
  const closing = srv.close().then(() => {
    closedAt = Date.now();
  });
  let received = 0;
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('data', (chunk: Buffer) => {
    received += chunk.length;
  });
  socket.resume();
  await ended;
  const endedAt = Date.now();
  await closing;
  expect(received).toBeGreaterThan(SIZE);
  expect(closedAt - endedAt).toBeLessThan(5000);
}, 30_000);
