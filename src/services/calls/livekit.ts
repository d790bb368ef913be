// LiveKit room access (docs/behaviour.md §7): POST /api/livekit/token for a room, and the video server address the
// /calls page shows before any token names one (a configured URL, else a websocket on port 7880 of this host).
import { RequestFailure } from '../../contract/failure';
import type { ApiClient } from '../app/api';

export const VIDEO_SERVER_FALLBACK_PORT = 7880;
export const TOKEN_FAILED = 'Не удалось получить доступ к видеосерверу';

export interface RoomAccess {
  token: string;
  url: string;
}

/** The room token; rejects with a RequestFailure carrying the server's Russian message, or TOKEN_FAILED. */
export async function requestRoomToken(
  api: ApiClient,
  request: { room: string; participantName?: string; userId?: string | null },
): Promise<RoomAccess> {
  try {
    const { token, url } = await api.call('livekitToken', {
      body: {
        room: request.room,
        ...(request.participantName ? { participantName: request.participantName } : {}),
        participantMetadata: { app: 'beseda', userId: request.userId ?? null },
      },
    });
    return { token, url };
  } catch (err) {
    const failure = err instanceof RequestFailure ? err : new RequestFailure(null, null);
    throw new RequestFailure(failure.status, failure.serverMessage ?? TOKEN_FAILED);
  }
}

/** VITE_LIVEKIT_URL when configured; else ws(s)://<this host>:7880. */
export function videoServerFallbackUrl(loc: { protocol: string; hostname: string }, configured?: string): string {
  if (configured) return configured;
  const scheme = loc.protocol === 'https:' ? 'wss' : 'ws';
  const host = loc.hostname.includes(':') ? `[${loc.hostname}]` : loc.hostname;
  return `${scheme}://${host}:${VIDEO_SERVER_FALLBACK_PORT}`;
}

export function configuredVideoServerUrl(): string | undefined {
  return (import.meta.env?.VITE_LIVEKIT_URL as string | undefined) || undefined;
}
