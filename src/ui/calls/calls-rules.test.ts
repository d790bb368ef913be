// The call view's rules (docs/behaviour.md §2, §5, §6, §9) as plain functions.
import { describe, expect, it } from 'vitest';
import {
  chatText,
  hidesTimestamp,
  isMinimalControlBar,
  TRACK_SOURCE,
  unreadBadge,
  unreadCount,
  visibleControls,
} from './conference-rules';

const all = { canPublish: true, canPublishData: true, canPublishSources: [] as number[] };

describe('control bar by permissions (docs/behaviour.md §6)', () => {
  it('hides microphone, camera, screen share and chat when no permissions are known; leave stays', () => {
    expect(visibleControls(undefined, { screenShareSupported: true })).toEqual({
      microphone: false,
      camera: false,
      screenShare: false,
      chat: false,
      settings: false,
      leave: true,
    });
  });

  it('shows every control with full permissions; screen share also needs browser support', () => {
    expect(visibleControls(all, { screenShareSupported: true })).toEqual({
      microphone: true,
      camera: true,
      screenShare: true,
      chat: true,
      settings: true,
      leave: true,
    });
    expect(visibleControls(all, { screenShareSupported: false }).screenShare).toBe(false);
  });

  it('follows the allowed sources list and the data permission', () => {
    const micOnly = visibleControls(
      { ...all, canPublishSources: [TRACK_SOURCE.microphone] },
      { screenShareSupported: true },
    );
    expect(micOnly).toMatchObject({ microphone: true, camera: false, screenShare: false, chat: true, settings: true });
    const noPublish = visibleControls(
      { ...all, canPublish: false, canPublishData: false },
      { screenShareSupported: true },
    );
    expect(noPublish).toMatchObject({
      microphone: false,
      camera: false,
      screenShare: false,
      chat: false,
      settings: false,
    });
    expect(
      visibleControls({ ...all, canPublishSources: [TRACK_SOURCE.screenShare] }, { screenShareSupported: true }),
    ).toMatchObject({
      microphone: false,
      camera: false,
      screenShare: true,
      settings: false,
    });
  });
});

describe('chat unread badge (docs/behaviour.md §2)', () => {
  it('is the count up to 9 and 9+ from 10', () => {
    expect([0, 1, 9, 10, 42].map(unreadBadge)).toEqual([null, '1', '9', '9+', '9+']);
  });

  it('counts others’ messages after the chat was last open, none while it is open', () => {
    const msgs = [{ fromLocal: false }, { fromLocal: true }, { fromLocal: false }, { fromLocal: false }];
    expect(unreadCount(msgs, 0, false)).toBe(3);
    expect(unreadCount(msgs, 2, false)).toBe(2);
    expect(unreadCount(msgs, 0, true)).toBe(0);
  });
});

describe('minimal control bar (docs/behaviour.md §9)', () => {
  it('below 760 px, or below 1000 px with the chat open', () => {
    expect([isMinimalControlBar(759, false), isMinimalControlBar(760, false)]).toEqual([true, false]);
    expect([isMinimalControlBar(999, true), isMinimalControlBar(1000, true), isMinimalControlBar(900, false)]).toEqual([
      true,
      false,
      false,
    ]);
  });
});

describe('call chat', () => {
  it('hides the time of a message within 60 s of the previous one from the same sender', () => {
    const a0 = { from: 'a', timestamp: 0 };
    expect(hidesTimestamp(undefined, a0)).toBe(false);
    expect(hidesTimestamp(a0, { from: 'a', timestamp: 59_999 })).toBe(true);
    expect(hidesTimestamp(a0, { from: 'a', timestamp: 60_000 })).toBe(false);
    expect(hidesTimestamp(a0, { from: 'b', timestamp: 1_000 })).toBe(false);
  });

  it('does not send empty or whitespace-only messages (docs/behaviour.md §5)', () => {
    expect([chatText(''), chatText('   \n'), chatText('  привет ')]).toEqual([null, null, 'привет']);
  });
});

describe('raised hands', () => {
  it('a hand’s place is its 1-based position in the order raised; a lowered hand has none', async () => {
    const { handPlace } = await import('./conference-rules');
    expect(handPlace(['u-v', 'u-b'], 'u-b')).toBe(2);
    expect(handPlace(['u-v', 'u-b'], 'u-v')).toBe(1);
    expect(handPlace(['u-v'], 'u-a')).toBeNull();
  });
});
