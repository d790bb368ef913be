// An external LiveKit's RoomService (LIVEKIT_URL), as media-rooms.ts uses it: RemoveParticipant when someone is
// removed from a call or loses the conversation (tokens issued up to that second are revoked, as the embedded
// media server refuses them), ListParticipants for who is in a room after a webhook. Twirp over HTTP at the
// LIVEKIT_URL's http(s) address (livekit-server-sdk turns ws:// into http://). A failure is logged: the removal
// in the app's own roster stands.
import { RoomServiceClient, TwirpError } from 'livekit-server-sdk';
import type { Clock } from '../clock';
import type { Config } from '../config';

export interface ExternalLivekit {
  /** Disconnects these identities from the room; resolves when every call is done (failures are logged). */
  remove(room: string, identities: readonly string[]): Promise<void>;
  /** Who is in the room now (identities), null when LiveKit could not say. */
  members(room: string): Promise<string[] | null>;
}

export interface ExternalLivekitDeps {
  apiKey: string;
  apiSecret: string;
  clock: Pick<Clock, 'now'>;
  logError(err: unknown, what: string): void;
}

/** Seconds an API call may take. */
const REQUEST_TIMEOUT_SEC = 10;

/** null without LIVEKIT_URL (the embedded media server is reached in-process). */
export function externalLivekit(
  livekit: Pick<Config['livekit'], 'url'>,
  deps: ExternalLivekitDeps,
): ExternalLivekit | null {
  if (!livekit.url) return null;
  const client = new RoomServiceClient(livekit.url, deps.apiKey, deps.apiSecret, {
    requestTimeout: REQUEST_TIMEOUT_SEC,
    // Region failover is LiveKit Cloud's; a self-hosted server has one address.
    failover: false,
  });
  return {
    async remove(room, identities) {
      const revokeTokenTs = BigInt(Math.floor(deps.clock.now() / 1000));
      await Promise.all(
        identities.map((identity) =>
          client.removeParticipant(room, identity, { revokeTokenTs }).catch((err: unknown) => {
            // Not in the room (any more): nothing to drop.
            if (err instanceof TwirpError && err.status === 404) return;
            deps.logError(err, 'LiveKit RemoveParticipant failed');
          }),
        ),
      );
    },
    async members(room) {
      try {
        return (await client.listParticipants(room)).map((p) => p.identity);
      } catch (err) {
        deps.logError(err, 'LiveKit ListParticipants failed');
        return null;
      }
    },
  };
}
