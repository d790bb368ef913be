// The key provider of a secret chat's call (call-e2ee.ts) with livekit-client's own key handling: one key per MLS
// epoch at index epoch mod 16, made current in the order of the epochs.
import { KeyProviderEvent } from 'livekit-client';
import { describe, expect, it } from 'vitest';
import { EpochKeyProvider, KEYRING_SIZE } from './call-e2ee';

describe('EpochKeyProvider', () => {
  it('sets each newer epoch’s key as current at epoch mod 16, and ignores an older epoch arriving late', async () => {
    const keys = new EpochKeyProvider();
    const set: { index: number | undefined; current: boolean; shared: boolean }[] = [];
    keys.on(KeyProviderEvent.SetKey, (info, current) =>
      set.push({ index: info.keyIndex, current: !!current, shared: info.participantIdentity === undefined }),
    );
    const bytes = (n: number) => new Uint8Array(32).fill(n);
    await Promise.all([keys.setEpochKey(17, bytes(17)), keys.setEpochKey(16, bytes(16))]);
    await keys.setEpochKey(18, bytes(18));
    expect(set).toEqual([
      { index: 17 % KEYRING_SIZE, current: true, shared: true },
      { index: 18 % KEYRING_SIZE, current: true, shared: true },
    ]);
    expect(keys.getLatestManuallySetKeyIndex()).toBe(2);
    // The same number again replaces its key (two devices that made a first secret each settle on one).
    await keys.setEpochKey(18, bytes(99));
    expect(set.at(-1)).toEqual({ index: 18 % KEYRING_SIZE, current: true, shared: true });
    expect(set).toHaveLength(3);
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
