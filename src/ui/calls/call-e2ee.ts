// LiveKit's end-to-end encryption for a secret chat's call (docs/secret-chats.md "Calls"), in the conference chunk
// only. Every participant sets the same key per MLS epoch, at key index epoch mod KEYRING_SIZE: a new epoch's key
// becomes the one frames are encrypted with, while frames still under the previous epoch's index decrypt with the
// key kept there. The e2ee worker (livekit-client's) is started only for such a call.
import {
  BaseKeyProvider,
  createKeyMaterialFromBuffer,
  type RemoteParticipant,
  type RemoteTrackPublication,
  Room,
  RoomEvent,
  type RoomOptions,
  Track,
} from 'livekit-client';

/** Key indexes in LiveKit's keyring: the last 16 epochs' keys stay usable for late frames. */
export const KEYRING_SIZE = 16;

/** A shared key per epoch, set from outside; never ratcheted (a wrong key is not "repaired" by guessing). */
export class EpochKeyProvider extends BaseKeyProvider {
  constructor() {
    super({ sharedKey: true, ratchetWindowSize: 0, failureTolerance: -1, keyringSize: KEYRING_SIZE });
  }

  private newest = -1;
  private queue: Promise<void> = Promise.resolve();

  /**
   * The 32 exporter bytes of `epoch` as the frame key (HKDF in livekit), made the current one. Keys are set in the
   * order asked, and one of an epoch older than the newest set is ignored (it would take the current index back).
   */
  setEpochKey(epoch: number, key: Uint8Array): Promise<void> {
    const bytes = key.slice().buffer;
    this.queue = this.queue.then(async () => {
      if (epoch <= this.newest) return;
      const material = await createKeyMaterialFromBuffer(bytes);
      this.newest = epoch;
      this.onSetEncryptionKey(material, undefined, epoch % KEYRING_SIZE);
    });
    return this.queue;
  }
}

export interface EncryptedRoom {
  room: Room;
  keys: EpochKeyProvider;
  /** Ends the e2ee worker (after the room disconnected). */
  close(): void;
}

/** A room whose media frames are encrypted once `room.setE2EEEnabled(true)` is called. */
export function encryptedRoom(options: RoomOptions, worker: () => Worker = e2eeWorker): EncryptedRoom {
  const keys = new EpochKeyProvider();
  const w = worker();
  const room = new Room({ ...options, e2ee: { keyProvider: keys, worker: w } });
  return { room, keys, close: () => w.terminate() };
}

function e2eeWorker(): Worker {
  return new Worker(new URL('livekit-client/e2ee-worker', import.meta.url), { type: 'module', name: 'beseda-e2ee' });
}

/** What the call says of a remote track dropped for coming unencrypted: «Борис: видео без шифрования отключено». */
export function unencryptedNotice(name: string, kind: 'audio' | 'video'): string {
  return kind === 'audio' ? `${name}: звук без шифрования отключён` : `${name}: видео без шифрования отключено`;
}

/** The events of a room the guard hears (a Room, or anything with the same two). */
export interface RoomEvents {
  on(event: RoomEvent.TrackPublished, l: (p: RemoteTrackPublication, who: RemoteParticipant) => void): unknown;
  on(
    event: RoomEvent.TrackSubscribed,
    l: (t: unknown, p: RemoteTrackPublication, who: RemoteParticipant) => void,
  ): unknown;
  off(event: RoomEvent.TrackPublished, l: (p: RemoteTrackPublication, who: RemoteParticipant) => void): unknown;
  off(
    event: RoomEvent.TrackSubscribed,
    l: (t: unknown, p: RemoteTrackPublication, who: RemoteParticipant) => void,
  ): unknown;
}

/**
 * In a secret call, a remote track published without end-to-end encryption (a participant whose client does not
 * encrypt, or a media server that says so) is never played: it is unsubscribed as soon as it is announced or
 * subscribed, and `onDropped` names it. Returns the function that stops listening.
 */
export function dropUnencrypted(room: RoomEvents, onDropped: (notice: string) => void): () => void {
  const named = new Set<string>();
  const check = (publication: RemoteTrackPublication, who: RemoteParticipant) => {
    if (publication.isEncrypted) return;
    publication.setSubscribed(false);
    const kind = publication.kind === Track.Kind.Audio ? 'audio' : 'video';
    const notice = unencryptedNotice(who.name || who.identity, kind);
    if (named.has(notice)) return;
    named.add(notice);
    onDropped(notice);
  };
  const published = (p: RemoteTrackPublication, who: RemoteParticipant) => check(p, who);
  const subscribed = (_: unknown, p: RemoteTrackPublication, who: RemoteParticipant) => check(p, who);
  room.on(RoomEvent.TrackPublished, published);
  room.on(RoomEvent.TrackSubscribed, subscribed);
  return () => {
    room.off(RoomEvent.TrackPublished, published);
    room.off(RoomEvent.TrackSubscribed, subscribed);
  };
}
