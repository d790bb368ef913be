// LiveKit's end-to-end encryption for a secret chat's call (docs/secret-chats.md "Calls"), in the conference chunk
// only. Every participant sets the same key per order number (the MLS epoch plus the call secret's generation), at
// key index number mod KEYRING_SIZE: a newer key becomes the one frames are encrypted with, while frames still under
// the previous index decrypt with the key kept there. The e2ee worker (livekit-client's) is started only for such a
// call.
import {
  BaseKeyProvider,
  ConnectionState,
  createKeyMaterialFromBuffer,
  DisconnectReason,
  KeyProviderEvent,
  type RemoteParticipant,
  type RemoteTrackPublication,
  Room,
  RoomEvent,
  type RoomOptions,
  Track,
} from 'livekit-client';
import { CALL_SECRET_TOPIC, type SecretCallRoomEvent } from '../../machines/secretChats/secretCall/secretCall.protocol';

/** Key indexes in LiveKit's keyring: the last 16 epochs' keys stay usable for late frames. */
export const KEYRING_SIZE = 16;

/**
 * A newer key decrypts at once but encrypts only this long after it is set. The devices in a call get a new key a
 * moment apart (the lead's sealed secret, a commit each applies), and a frame sent under a key its receiver does not
 * hold yet is lost: video then stops until the next keyframe gets through. The one who left sees this much more.
 */
export const KEY_SWITCH_DELAY_MS = 1500;

/**
 * A shared key per order number, set from outside; never ratcheted (a wrong key is not "repaired" by guessing). For a
 * member of a secret chat the number is the group's epoch plus the call secret's generation (call-secret.ts); for a
 * guest, what the member who sealed the key said.
 */
export class EpochKeyProvider extends BaseKeyProvider {
  /** `later`: the timer of the switch to a newer key (tests pass their own). */
  constructor(
    private readonly later: (run: () => void, ms: number) => void = (run, ms) => {
      setTimeout(run, ms);
    },
  ) {
    super({ sharedKey: true, ratchetWindowSize: 0, failureTolerance: -1, keyringSize: KEYRING_SIZE });
  }

  private newest = -1;
  /** Counts the keys set: a switch due for a key since replaced or overtaken is not made. */
  private sets = 0;
  private queue: Promise<void> = Promise.resolve();

  /**
   * The 32 bytes of key `epoch` as the frame key (HKDF in livekit) at index epoch mod 16: the first one is current at
   * once; a newer one decrypts at once and becomes current KEY_SWITCH_DELAY_MS later. Keys are set in the order asked;
   * one older than the newest set is ignored (it would take the current index back), one of the same number replaces
   * it (two devices that both made the call's first secret settle on one).
   */
  setEpochKey(epoch: number, key: Uint8Array): Promise<void> {
    const bytes = key.slice().buffer;
    this.queue = this.queue.then(async () => {
      if (epoch < this.newest) return;
      const material = await createKeyMaterialFromBuffer(bytes);
      const first = this.newest < 0;
      const index = epoch % KEYRING_SIZE;
      this.newest = epoch;
      const mine = ++this.sets;
      if (first) {
        this.onSetEncryptionKey(material, undefined, index);
        return;
      }
      // In the keyring for what others already send under it; this page's own frames move to it a little later.
      this.emit(KeyProviderEvent.SetKey, { key: material, participantIdentity: undefined, keyIndex: index }, false);
      this.later(() => {
        if (mine === this.sets) this.onSetEncryptionKey(material, undefined, index);
      }, KEY_SWITCH_DELAY_MS);
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

/** A member who left for one of these is still in the call (on another device, or another media worker). */
const STILL_IN = new Set([DisconnectReason.DUPLICATE_IDENTITY, DisconnectReason.MIGRATION]);

/** The part of a room the key exchange follows (a Room, or anything with the same). */
export interface KeyRoom {
  readonly state: ConnectionState;
  readonly remoteParticipants: ReadonlyMap<string, { identity: string }>;
  on(event: RoomEvent, listener: (...args: unknown[]) => void): unknown;
  off(event: RoomEvent, listener: (...args: unknown[]) => void): unknown;
}

/**
 * What the call secret's exchange hears of the room (docs/secret-chats.md "Who holds the call's key"): connected with
 * whom, who joins, who leaves (not one who moved to another device or media worker), and its messages on the data
 * channel. Returns the function that stops listening.
 */
export function followRoomForKey(room: KeyRoom, tell: (event: SecretCallRoomEvent) => void): () => void {
  const others = () => [...room.remoteParticipants.values()].map((p) => p.identity);
  const connected = () => tell({ type: 'secretCall.connected', others: others() });
  const joined = (p: { identity: string }) => tell({ type: 'secretCall.joined', identity: p.identity });
  const left = (p: { identity: string }, reason?: DisconnectReason) => {
    if (reason !== undefined && STILL_IN.has(reason)) return;
    // This page's own full reconnect reports everyone gone and then turns the room to reconnecting, in one task:
    // only a leave seen while the room is still connected is one (else this page would re-key for itself alone).
    queueMicrotask(() => {
      if (room.state === ConnectionState.Connected)
        tell({ type: 'secretCall.left', identity: p.identity, others: others() });
    });
  };
  const data = (payload: Uint8Array, p?: { identity: string }, _kind?: unknown, topic?: string) => {
    if (topic === CALL_SECRET_TOPIC && p) tell({ type: 'secretCall.data', from: p.identity, payload });
  };
  const listeners = [
    [RoomEvent.Connected, connected],
    [RoomEvent.ParticipantConnected, joined],
    [RoomEvent.ParticipantDisconnected, left],
    [RoomEvent.DataReceived, data],
  ] as const;
  for (const [event, listener] of listeners) room.on(event, listener as (...args: unknown[]) => void);
  if (room.state === ConnectionState.Connected) connected();
  return () => {
    for (const [event, listener] of listeners) room.off(event, listener as (...args: unknown[]) => void);
  };
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
