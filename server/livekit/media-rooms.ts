// The calls of this deployment's media servers, as the conversation routes reach them: whoever loses access to a
// conversation (removed, left) is disconnected from its call at once. The embedded media server of each process is
// attached by `npm start` (server/main.ts); the other processes hear the removal over the peer channel. With an
// external LiveKit (LIVEKIT_URL) nothing is attached here: the process that removes someone asks LiveKit's
// RoomService to drop them and revoke their older tokens (external-livekit.ts), and no new token is issued to them.
// The attached media server also tells who is in each of its rooms after every join and leave: guests' admission
// ends with the call (docs/behaviour.md §10.40); the process hosting the room decides, in the database. An external
// LiveKit's webhooks (webhook.routes.ts) come in through `heard`: group calls follow its participant events, and who
// is in the room then (its RoomService says) reaches the same participants listeners.
import fp from 'fastify-plugin';
import { type ExternalLivekit, externalLivekit } from './external-livekit';

/** What a media server offers for it (server/sfu/index.ts's Sfu). */
export interface MediaServer {
  removeParticipants(room: string, identities: readonly string[]): Promise<number> | number;
  /** Rooms, participants and packets of this process's media server (metrics and «Администрирование»). */
  stats?(): MediaStats;
  /** Who is in a room (identities) after each join and leave; null stops it. */
  onParticipants?(listener: ((room: string, identities: readonly string[]) => void) | null): void;
}

export type ParticipantsListener = (room: string, identities: readonly string[]) => void;

/** An external LiveKit's webhook, as the app uses it (times in ms since the epoch). */
export type MediaEvent =
  | { kind: 'joined'; room: string; identity: string; sid: string; joinedAt: number }
  | { kind: 'left'; room: string; identity: string; sid: string }
  | { kind: 'finished'; room: string; at: number };

export type MediaEventListener = (event: MediaEvent) => Promise<void>;

export interface MediaStats {
  rooms: number;
  participants: number;
  packetsIn: number;
  packetsOut: number;
}

export interface MediaRooms {
  /** Disconnects the users from the conversation's call on every process's media server. */
  removeFromCall(conversationId: string, userIds: readonly string[]): void;
  /** Disconnects these media identities (guests) from a room on every process's media server. */
  removeFromRoom(room: string, identities: readonly string[]): void;
  /** The media server of this process (null: none). */
  attach(server: MediaServer | null): void;
  /** The attached media server's figures, null when there is none (an external LiveKit). */
  stats(): MediaStats | null;
  /**
   * Hears who is in each room of this process's media server after every join and leave (nothing with an external
   * LiveKit); returns the way to stop.
   */
  onParticipants(listener: ParticipantsListener): () => void;
  /** Hears removeFromCall on the process that asked for it (a group call's roster drops them: server/calls). */
  onRemovedFromCall(listener: (conversationId: string, userIds: readonly string[]) => void): void;
  /**
   * An external LiveKit's webhook (webhook.routes.ts): the media event listeners first (a failure rejects, so
   * LiveKit sends it again), then the participants listeners with who is in the room now (its RoomService says).
   */
  heard(event: MediaEvent): Promise<void>;
  /** Hears an external LiveKit's participant events (group calls: server/calls). */
  onMediaEvent(listener: MediaEventListener): void;
}

/** The room of a conversation's call (the token route's `conv-<id>`). */
export const callRoom = (conversationId: string) => `conv-${conversationId}`;

declare module 'fastify' {
  interface FastifyInstance {
    mediaRooms: MediaRooms;
  }
}

export const mediaRoomsPlugin = fp(
  async (app) => {
    let local: MediaServer | null = null;
    const external: ExternalLivekit | null = externalLivekit(app.config.livekit, {
      apiKey: app.secrets.livekitApiKey,
      apiSecret: app.secrets.livekitApiSecret,
      clock: app.clock,
      logError: (err, what) => app.log.error({ err }, what),
    });
    const mediaListeners: MediaEventListener[] = [];
    const listeners = new Set<ParticipantsListener>();
    const removedListeners: ((conversationId: string, userIds: readonly string[]) => void)[] = [];
    const relay: ParticipantsListener = (room, identities) => {
      // Called from inside the media server's leave: a failing listener must not break it.
      for (const l of listeners) {
        try {
          l(room, identities);
        } catch (err) {
          app.log.error({ err, room }, 'media participants listener failed');
        }
      }
    };
    const { peers } = app.realtime;
    const removeHere = (conversationId: string, userIds: readonly string[]) => {
      void local?.removeParticipants(callRoom(conversationId), userIds);
    };
    peers?.on('media:remove', (conversationId, userIds) => {
      if (typeof conversationId === 'string' && Array.isArray(userIds)) removeHere(conversationId, userIds as string[]);
    });
    peers?.on('media:removeFromRoom', (room, identities) => {
      if (typeof room === 'string' && Array.isArray(identities))
        local?.removeParticipants(room, identities as string[]);
    });
    app.decorate('mediaRooms', {
      removeFromCall(conversationId, userIds) {
        if (!userIds.length) return;
        removeHere(conversationId, userIds);
        void external?.remove(callRoom(conversationId), userIds);
        peers?.emit('media:remove', conversationId, userIds);
        for (const l of removedListeners) l(conversationId, userIds);
      },
      removeFromRoom(room, identities) {
        if (!identities.length) return;
        local?.removeParticipants(room, identities);
        void external?.remove(room, identities);
        peers?.emit('media:removeFromRoom', room, identities);
      },
      attach(server) {
        local?.onParticipants?.(null);
        local = server;
        local?.onParticipants?.(relay);
      },
      stats: () => local?.stats?.() ?? null,
      onParticipants(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      onRemovedFromCall(listener) {
        removedListeners.push(listener);
      },
      async heard(event) {
        for (const l of mediaListeners) await l(event);
        const identities = event.kind === 'finished' ? [] : await external?.members(event.room);
        if (identities) relay(event.room, identities);
      },
      onMediaEvent(listener) {
        mediaListeners.push(listener);
      },
    } satisfies MediaRooms);
  },
  {
    name: 'media-rooms',
    decorators: { fastify: ['clock', 'config', 'realtime', 'secrets'] },
    dependencies: ['base', 'realtime'],
  },
);
