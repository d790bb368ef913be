// VP8 picture numbering across simulcast layer switches (server/sfu/media/vp8.ts, used by server/sfu/media/forwarding.ts).
// Chromium gives the layers' pictures of one captured frame the same picture ID; a receiver that got the low
// layer's keyframe for frame N and then the high layer's keyframe for frame N drops the second as a duplicate.
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as werift from 'werift';
import { type PublishedTrack, TrackSubscription } from '../../server/sfu/media/forwarding';
import { WeriftDownstream } from '../../server/sfu/media/werift-endpoints';
import { RtpOut } from '../../server/sfu/media/rtp-out';
import { isVp8KeyframeStart, readVp8Numbers, type Vp8Numbers, Vp8Renumbering } from '../../server/sfu/media/vp8';

interface Picture {
  pictureId?: number;
  /** 7-bit picture ID (M bit clear) instead of 15-bit. */
  short?: boolean;
  tl0?: number;
  keyIdx?: number;
  tid?: number;
  keyframe?: boolean;
  start?: boolean;
}

/** An RTP VP8 payload: the descriptor Chromium writes, then a frame header (P bit clear on a keyframe) and data. */
function vp8(p: Picture): Buffer {
  const bytes: number[] = [];
  const x =
    (p.pictureId !== undefined ? 0x80 : 0) |
    (p.tl0 !== undefined ? 0x40 : 0) |
    (p.tid !== undefined ? 0x20 : 0) |
    (p.keyIdx !== undefined ? 0x10 : 0);
  bytes.push((x ? 0x80 : 0) | (p.start === false ? 0 : 0x10));
  if (x) bytes.push(x);
  if (p.pictureId !== undefined) {
    if (p.short) bytes.push(p.pictureId & 0x7f);
    else bytes.push(0x80 | (p.pictureId >> 8), p.pictureId & 0xff);
  }
  if (p.tl0 !== undefined) bytes.push(p.tl0);
  if (p.tid !== undefined || p.keyIdx !== undefined) bytes.push(((p.tid ?? 0) << 6) | 0x20 | (p.keyIdx ?? 0));
  bytes.push(p.keyframe ? 0x10 : 0x11, 0x02, 0x00, 0x9d, 0x01, 0x2a, 0x40, 0x01, 0xb4, 0x00);
  return Buffer.from(bytes);
}

const numbers = (payload: Buffer): Vp8Numbers => {
  const n: Vp8Numbers = { length: 0, pictureId: 0, pictureIdBits: 0, tl0PicIdx: -1, keyIdx: -1 };
  expect(readVp8Numbers(payload, n)).toBe(true);
  return n;
};

/** What the receiver gets: the descriptor the renumbering sends in place of the packet's own. */
const sent = (r: Vp8Renumbering, payload: Buffer): Vp8Numbers => {
  const d = r.rewrite(payload);
  return numbers(d ? Buffer.concat([d, payload.subarray(d.length)]) : payload);
};

describe('readVp8Numbers', () => {
  it('reads 15- and 7-bit picture IDs, TL0PICIDX and KEYIDX, and the descriptor length', () => {
    expect(numbers(vp8({ pictureId: 19977, tl0: 254, tid: 0, keyIdx: 3, keyframe: true }))).toEqual({
      length: 6,
      pictureId: 19977,
      pictureIdBits: 15,
      tl0PicIdx: 254,
      keyIdx: 3,
    });
    expect(numbers(vp8({ pictureId: 100, short: true, tl0: 7 }))).toEqual({
      length: 4,
      pictureId: 100,
      pictureIdBits: 7,
      tl0PicIdx: 7,
      keyIdx: -1,
    });
    expect(numbers(vp8({ tid: 2 }))).toMatchObject({ length: 3, pictureIdBits: 0, tl0PicIdx: -1, keyIdx: -1 });
    expect(numbers(vp8({}))).toMatchObject({ length: 1, pictureIdBits: 0 });
  });

  it('refuses a descriptor cut short', () => {
    const n = numbers(vp8({}));
    const full = vp8({ pictureId: 300, tl0: 1, keyIdx: 1 });
    for (let cut = 1; cut < 6; cut++) expect(readVp8Numbers(full.subarray(0, cut), n), `${cut} bytes`).toBe(false);
  });
});

describe('Vp8Renumbering', () => {
  it('leaves a subscriber that never switched with the publisher’s numbers', () => {
    const r = new Vp8Renumbering();
    r.restart(vp8({ pictureId: 500, tl0: 9, keyIdx: 1, keyframe: true }));
    for (let i = 0; i < 5; i++) expect(r.rewrite(vp8({ pictureId: 500 + i, tl0: 9 + i, keyIdx: 1 }))).toBeNull();
  });

  it('numbers the new layer’s keyframe for the frame just sent on the old layer as the next picture, and keeps counting', () => {
    const r = new Vp8Renumbering();
    // Low layer: frames 19975..19977, the last one a keyframe (all layers answer a keyframe request together).
    r.restart(vp8({ pictureId: 19975, tl0: 250, tid: 0, keyIdx: 4, keyframe: true }));
    for (const id of [19975, 19976, 19977]) sent(r, vp8({ pictureId: id, tl0: 250 + (id - 19975), tid: 0, keyIdx: 4 }));
    // Switch to the high layer on its keyframe for the same frame 19977 (its own TL0PICIDX and KEYIDX).
    const key = vp8({ pictureId: 19977, tl0: 30, tid: 0, keyIdx: 9, keyframe: true });
    r.restart(key);
    expect(sent(r, key)).toMatchObject({ pictureId: 19978, tl0PicIdx: 253, keyIdx: 5 });
    expect(isVp8KeyframeStart(Buffer.concat([r.rewrite(key) as Buffer, key.subarray(6)]))).toBe(true);
    expect(sent(r, vp8({ pictureId: 19978, tl0: 30, tid: 2, keyIdx: 9 }))).toMatchObject({
      pictureId: 19979,
      tl0PicIdx: 253,
      keyIdx: 5,
    });
    expect(sent(r, vp8({ pictureId: 19979, tl0: 31, tid: 0, keyIdx: 9 }))).toMatchObject({
      pictureId: 19980,
      tl0PicIdx: 254,
      keyIdx: 5,
    });
    // A packet of the same picture (its continuation) gets the same numbers.
    expect(sent(r, vp8({ pictureId: 19979, tl0: 31, tid: 0, keyIdx: 9, start: false }))).toMatchObject({
      pictureId: 19980,
      tl0PicIdx: 254,
    });
  });

  it('continues after a switch down to a layer whose numbers are behind, and wraps 15-bit IDs, TL0PICIDX and KEYIDX', () => {
    const r = new Vp8Renumbering();
    r.restart(vp8({ pictureId: 32766, tl0: 255, keyIdx: 31, keyframe: true }));
    sent(r, vp8({ pictureId: 32766, tl0: 255, keyIdx: 31 }));
    sent(r, vp8({ pictureId: 32767, tl0: 255, keyIdx: 31 }));
    const key = vp8({ pictureId: 40, tl0: 3, keyIdx: 2, keyframe: true });
    r.restart(key);
    expect(sent(r, key)).toMatchObject({ pictureId: 0, tl0PicIdx: 0, keyIdx: 0 });
    expect(sent(r, vp8({ pictureId: 41, tl0: 4, keyIdx: 2 }))).toMatchObject({ pictureId: 1, tl0PicIdx: 1, keyIdx: 0 });
  });

  it('wraps 7-bit picture IDs within 7 bits', () => {
    const r = new Vp8Renumbering();
    r.restart(vp8({ pictureId: 126, short: true, keyframe: true }));
    sent(r, vp8({ pictureId: 126, short: true }));
    sent(r, vp8({ pictureId: 127, short: true }));
    const key = vp8({ pictureId: 127, short: true, keyframe: true });
    r.restart(key);
    const first = sent(r, key);
    expect(first).toMatchObject({ pictureId: 0, pictureIdBits: 7, length: 3 });
  });

  it('a late packet of an older picture does not move the count back', () => {
    const r = new Vp8Renumbering();
    r.restart(vp8({ pictureId: 10, keyframe: true }));
    for (const id of [10, 11, 12]) sent(r, vp8({ pictureId: id }));
    sent(r, vp8({ pictureId: 11, start: false }));
    const key = vp8({ pictureId: 12, keyframe: true });
    r.restart(key);
    expect(sent(r, key).pictureId).toBe(13);
  });
});

describe('TrackSubscription', () => {
  afterEach(() => vi.restoreAllMocks());

  it('sends the high layer’s keyframe after the low layer’s keyframe for the same frame as a new picture', () => {
    const sends: Array<{ payload: Buffer; descriptor: Buffer | null }> = [];
    vi.spyOn(RtpOut.prototype, 'send').mockImplementation((payload, _marker, _seq, _ts, _clock, descriptor) => {
      sends.push({ payload, descriptor: descriptor ? Buffer.from(descriptor) : null });
    });
    const track = {
      kind: 'video',
      subscribers: new Set(),
      chooseLayers: () => {},
      requestKeyframe: () => {},
    } as unknown as PublishedTrack;
    const sub = new TrackSubscription(track, 'PA_viewer');
    const subscribe = () => ({ unSubscribe: () => {} });
    sub.attach(
      new WeriftDownstream({
        sender: { onPictureLossIndication: { subscribe }, onRtcp: { subscribe } },
      } as unknown as werift.RTCRtpTransceiver),
    );
    const packet = (seq: number, payload: Buffer) =>
      new werift.RtpPacket(
        new werift.RtpHeader({ sequenceNumber: seq, timestamp: seq * 4500, marker: true, ssrc: 1 }),
        payload,
      );
    const low = packet(100, vp8({ pictureId: 19977, tl0: 254, tid: 0, keyIdx: 1, keyframe: true }));
    sub.switchTo('q', low);
    sub.send(low);
    const high = packet(7000, vp8({ pictureId: 19977, tl0: 30, tid: 0, keyIdx: 6, keyframe: true }));
    sub.switchTo('h', high);
    sub.send(high);
    sub.send(packet(7001, vp8({ pictureId: 19978, tl0: 30, tid: 2, keyIdx: 6 })));
    sub.detach();
    const received = sends.map(({ payload, descriptor }) =>
      numbers(descriptor ? Buffer.concat([descriptor, payload.subarray(descriptor.length)]) : payload),
    );
    expect(received.map((n) => n.pictureId)).toEqual([19977, 19978, 19979]);
    expect(received.map((n) => n.tl0PicIdx)).toEqual([254, 255, 255]);
    expect(received.map((n) => n.keyIdx)).toEqual([1, 2, 2]);
  });
});
