import { describe, expect, it } from 'vitest';
import { RequestFailure } from '../../contract/failure';
import type { ApiClient } from '../app/api';
import { requestRoomToken, TOKEN_FAILED, videoServerFallbackUrl } from './livekit';

describe('video server address (docs/behaviour.md §7: fallback websocket on port 7880 unless configured)', () => {
  it('is ws on http, wss on https, the configured URL when there is one', () => {
    expect(videoServerFallbackUrl({ protocol: 'http:', hostname: 'localhost' })).toBe('ws://localhost:7880');
    expect(videoServerFallbackUrl({ protocol: 'https:', hostname: 'chat.example.org' })).toBe(
      'wss://chat.example.org:7880',
    );
    expect(videoServerFallbackUrl({ protocol: 'http:', hostname: '::1' })).toBe('ws://[::1]:7880');
    expect(videoServerFallbackUrl({ protocol: 'http:', hostname: 'x' }, 'wss://media.example.org')).toBe(
      'wss://media.example.org',
    );
  });
});

describe('room token', () => {
  it('posts room, name and metadata {app, userId}; answers token and url', async () => {
    const calls: unknown[] = [];
    const api = {
      call: async (name: string, o: unknown) => {
        calls.push([name, o]);
        return { token: 'jwt', url: 'ws://h:7880' };
      },
    } as unknown as ApiClient;
    expect(await requestRoomToken(api, { room: 'demo-room', participantName: 'guest', userId: 'u1' })).toEqual({
      token: 'jwt',
      url: 'ws://h:7880',
    });
    expect(calls).toEqual([
      [
        'livekitToken',
        { body: { room: 'demo-room', participantName: 'guest', participantMetadata: { app: 'beseda', userId: 'u1' } } },
      ],
    ]);
  });

  it('rejects with the server’s message, or a generic one', async () => {
    const refused = new RequestFailure(403, 'Звонок доступен только участникам беседы');
    const failing = (err: unknown) => ({ call: async () => Promise.reject(err) }) as unknown as ApiClient;
    await expect(requestRoomToken(failing(refused), { room: 'conv-1' })).rejects.toThrow(
      'Звонок доступен только участникам беседы',
    );
    await expect(requestRoomToken(failing(new TypeError('network')), { room: 'conv-1' })).rejects.toThrow(TOKEN_FAILED);
  });
});
