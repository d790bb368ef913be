// LiveKit's end-to-end encryption for a secret chat's call (docs/secret-chats.md "Calls"), in the conference chunk
// only. Every participant sets the same key per order number (the MLS epoch plus the call secret's generation), at
// key index number mod KEYRING_SIZE: a newer key becomes the one frames are encrypted with, while frames still under
// the previous index decrypt with the key kept there. The e2ee worker (livekit-client's) is started only for such a
// call.
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

/**
 * A shared key per order number, set from outside; never ratcheted (a wrong key is not "repaired" by guessing). For a
 * member of a secret chat the number is the group's epoch plus the call secret's generation (call-secret.ts); for a
 * guest, what the member who sealed the key said.
 */
export class EpochKeyProvider extends BaseKeyProvider {
  constructor() {
    super({ sharedKey: true, ratchetWindowSize: 0, failureTolerance: -1, keyringSize: KEYRING_SIZE });
  }

  private newest = -1;
  private queue: Promise<void> = Promise.resolve();

  /**
   * The 32 bytes of key `epoch` as the frame key (HKDF in livekit), made the current one. Keys are set in the order
   * asked; one older than the newest set is ignored (it would take the current index back), one of the same number
   * replaces it (two devices that both made the call's first secret settle on one).
   */
  setEpochKey(epoch: number, key: Uint8Array): Promise<void> {
    const bytes = key.slice().buffer;
    this.queue = this.queue.then(async () => {
      if (epoch < this.newest) return;
      const material = await createKeyMaterialFromBuffer(bytes);
      this.newest = epoch;
      this.onSetEncryptionKey(material, undefined, epoch % KEYRING_SIZE);
    });
    return this.queue;
  }

  /**
   * Until the call's key arrives, a random key of this page's own at index 0: the room may connect, and what it sends
   * meanwhile nobody decrypts (never the group's key alone, which members outside the call hold too). Any key set
   * after it wins.
   */
  setPlaceholder(): Promise<void> {
    const bytes = crypto.getRandomValues(new Uint8Array(32)).buffer;
    this.queue = this.queue.then(async () => {
      if (this.newest >= 0) return;
      this.onSetEncryptionKey(await createKeyMaterialFromBuffer(bytes), undefined, 0);
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
