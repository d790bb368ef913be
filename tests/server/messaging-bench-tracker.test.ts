// The benchmark's delivery accounting (bench/messages/delivery-tracker.ts) must see what it claims to count:
// a lost, a duplicated and a misdelivered message, and the latency of each first delivery.
import { describe, expect, it } from 'vitest';
import { DeliveryTracker, quantile } from '../../bench/messages/delivery-tracker';

const frame = (id: string, key: string) => ({ id, clientMessageId: key });

describe('DeliveryTracker', () => {
  it('counts an acknowledged send that never arrives as lost, and an unanswered one apart', () => {
    const t = new DeliveryTracker();
    t.sent('k1', 'alice', ['bob'], 0);
    t.sent('k2', 'alice', ['bob'], 0);
    t.sent('k3', 'alice', ['bob'], 0);
    t.acked('k1', 'm1');
    t.acked('k2', 'm2');
    t.frame('bob', 'message:new', frame('m1', 'k1'), 5);
    expect(t.totals()).toMatchObject({ sent: 3, acked: 2, deliveries: 1, lost: 1 });
    expect(t.missing(true)).toBe(2);
    expect(t.inFlight()).toBe(1);
  });

  it('tells a duplicate (same event twice, or a second stored copy) from an extra frame of the other event', () => {
    const t = new DeliveryTracker();
    t.sent('k1', 'alice', ['bob', 'carol'], 0);
    t.acked('k1', 'm1');
    t.frame('alice', 'message:new', frame('m1', 'k1'), 1);
    t.frame('bob', 'message:new', frame('m1', 'k1'), 2);
    t.frame('bob', 'message:notify', frame('m1', 'k1'), 2);
    t.frame('bob', 'message:new', frame('m1', 'k1'), 3);
    t.frame('carol', 'message:notify', frame('m9', 'k1'), 4);
    expect(t.totals()).toMatchObject({ deliveries: 2, echoes: 1, extraFrames: 1, duplicates: 2, lost: 0 });
  });

  it('counts a frame for someone who should not get it, or for an unknown message, as misdelivered', () => {
    const t = new DeliveryTracker();
    t.sent('k1', 'alice', ['bob'], 0);
    t.frame('eve', 'message:new', frame('m1', 'k1'), 1);
    t.frame('bob', 'message:new', frame('mx', 'unknown'), 1);
    t.frame('bob', 'message:new', { id: 'my', clientMessageId: null }, 1);
    expect(t.totals().misdelivered).toBe(3);
  });

  it('times each first delivery from the scheduled send and windows them by arrival', () => {
    const t = new DeliveryTracker();
    for (let i = 0; i < 10; i++) {
      t.sent(`k${i}`, 'alice', ['bob'], i * 10);
      t.frame('bob', 'message:new', frame(`m${i}`, `k${i}`), i * 10 + i + 1);
    }
    const all = t.window(Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY);
    expect(all.deliveries).toBe(10);
    expect(quantile(all.latencies, 0.5)).toBe(5);
    expect(quantile(all.latencies, 1)).toBe(10);
    expect(t.window(0, 50).deliveries).toBe(5);
  });
});
