// LiveKit's end-to-end encryption for a secret chat's call (docs/secret-chats.md "Calls"), in the conference chunk
// only. Every participant sets the same key per MLS epoch, at key index epoch mod KEYRING_SIZE: a new epoch's key
// becomes the one frames are encrypted with, while frames still under the previous epoch's index decrypt with the
// key kept there. The e2ee worker (livekit-client's) is started only for such a call.
import { BaseKeyProvider, createKeyMaterialFromBuffer, Room, type RoomOptions } from 'livekit-client';

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
