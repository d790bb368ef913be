// The key provider of a secret chat's call (call-e2ee.ts) with livekit-client's own key handling: one key per order
// number at index number mod 16, made current in the order of the numbers, a newer one after the switch delay.
import { EventEmitter } from 'node:events';
import { ConnectionState, DisconnectReason, KeyProviderEvent, RoomEvent } from 'livekit-client';
import { describe, expect, it } from 'vitest';
import type { SecretCallRoomEvent } from '../../machines/secretChats/secretCall/secretCall.protocol';
import { EpochKeyProvider, followRoomForKey, KEY_SWITCH_DELAY_MS, KEYRING_SIZE } from './call-e2ee';

describe('EpochKeyProvider', () => {
  it('sets each newer epoch’s key at epoch mod 16: the first current at once, a newer one decrypting at once and current after the delay', async () => {
    const timers: { run: () => void; ms: number }[] = [];
    const keys = new EpochKeyProvider((run, ms) => timers.push({ run, ms }));
    const set: { index: number | undefined; current: boolean; shared: boolean }[] = [];
    keys.on(KeyProviderEvent.SetKey, (info, current) =>
      set.push({ index: info.keyIndex, current: !!current, shared: info.participantIdentity === undefined }),
    );
    const bytes = (n: number) => new Uint8Array(32).fill(n);
    // An older epoch arriving late is ignored.
    await Promise.all([keys.setEpochKey(17, bytes(17)), keys.setEpochKey(16, bytes(16))]);
    await keys.setEpochKey(18, bytes(18));
    expect(set).toEqual([
      { index: 17 % KEYRING_SIZE, current: true, shared: true },
      { index: 18 % KEYRING_SIZE, current: false, shared: true },
    ]);
    expect(timers.map((t) => t.ms)).toEqual([KEY_SWITCH_DELAY_MS]);
    timers[0]?.run();
    expect(set.at(-1)).toEqual({ index: 18 % KEYRING_SIZE, current: true, shared: true });
    expect(keys.getLatestManuallySetKeyIndex()).toBe(2);
    // The same number again replaces its key (two devices that made a first secret each settle on one); a switch
    // due for a key replaced or overtaken meanwhile is not made.
    await keys.setEpochKey(19, bytes(19));
    await keys.setEpochKey(19, bytes(99));
    await keys.setEpochKey(20, bytes(20));
    const before = set.length;
    for (const t of timers.slice(1, 3)) t.run();
    expect(set).toHaveLength(before);
    timers[3]?.run();
    expect(set.at(-1)).toEqual({ index: 20 % KEYRING_SIZE, current: true, shared: true });
    // Shared by every participant, never ratcheted or dropped after failures (a wrong key stays wrong).
    expect(keys.getOptions()).toMatchObject({ sharedKey: true, ratchetWindowSize: 0, failureTolerance: -1 });
  });

  it('holds a key of its own at index 0 until the call’s first key, and never after', async () => {
    const keys = new EpochKeyProvider();
    const set: (number | undefined)[] = [];
    keys.on(KeyProviderEvent.SetKey, (info) => set.push(info.keyIndex));
    await keys.setPlaceholder();
    await keys.setEpochKey(5, new Uint8Array(32).fill(5));
    await keys.setPlaceholder();
    expect(set).toEqual([0, 5]);
  });
});

/** A room as the exchange sees it: its state, its remote participants and its events. */
class FakeRoom extends EventEmitter {
  state = ConnectionState.Connected;
  remoteParticipants = new Map<string, { identity: string }>();
  add(identity: string) {
    this.remoteParticipants.set(identity, { identity });
    this.emit(RoomEvent.ParticipantConnected, { identity });
  }
  remove(identity: string, reason?: DisconnectReason) {
    const p = this.remoteParticipants.get(identity);
    this.remoteParticipants.delete(identity);
    this.emit(RoomEvent.ParticipantDisconnected, p, reason);
  }
}
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('followRoomForKey', () => {
  it('tells who is in, who joins and leaves, and the exchange’s own messages; not one who moved on', async () => {
    const room = new FakeRoom();
    room.remoteParticipants.set('u2', { identity: 'u2' });
    const told: SecretCallRoomEvent[] = [];
    const stop = followRoomForKey(room, (e) => told.push(e));
    room.add('u3');
    room.remove('u3');
    room.remove('u2', DisconnectReason.DUPLICATE_IDENTITY);
    room.emit(RoomEvent.DataReceived, new Uint8Array([1]), { identity: 'u4' }, undefined, 'beseda-call-secret');
    room.emit(RoomEvent.DataReceived, new Uint8Array([2]), { identity: 'u4' }, undefined, 'lk-chat-topic');
    await settle();
    expect(told).toEqual([
      { type: 'secretCall.connected', others: ['u2'] },
      { type: 'secretCall.joined', identity: 'u3' },
      { type: 'secretCall.data', from: 'u4', payload: new Uint8Array([1]) },
      { type: 'secretCall.left', identity: 'u3', others: [] },
    ]);
    stop();
    room.add('u5');
    expect(told).toHaveLength(4);
  });

  it('a full reconnect of this page, which reports everyone gone, is no one leaving (no re-key for itself alone)', async () => {
    const room = new FakeRoom();
    room.remoteParticipants.set('u2', { identity: 'u2' });
    room.remoteParticipants.set('u3', { identity: 'u3' });
    const told: SecretCallRoomEvent[] = [];
    followRoomForKey(room, (e) => told.push(e));
    // As livekit-client's handleRestarting does: every remote participant gone, then the state, in one task.
    room.remove('u2');
    room.remove('u3');
    room.state = ConnectionState.Reconnecting;
    await settle();
    expect(told.filter((e) => e.type === 'secretCall.left')).toEqual([]);
  });
});
