// The media server's SRTP on published evidence, not only against werift: known-answer tests from RFC 3711
// (B.2 AES-CM keystream, B.3 key derivation), RFC 2202 (HMAC-SHA1, the 80-byte keys included) and RFC 7714
// (AEAD_AES_128_GCM, RTP and RTCP). Then the tag-length rule of `verify`, and the fast path's start-up check and
// setting, which leave werift's own code running when werift's internals are not what the fast path reads.
import { describe, expect, it } from 'vitest';
import * as werift from 'werift';
import { HmacSha1 } from '../../server/sfu/media/hmac-sha1';
import {
  afterSrtpKeys,
  applyFastSrtpPatch,
  checkWeriftShape,
  fastSrtpFromEnv,
  fastSrtpOf,
  fastSrtpStatus,
  Keys,
  type WeriftContext,
} from '../../server/sfu/media/srtp-fast';
import { CmKeystream } from '../../server/sfu/media/srtp-keystream';

const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ''), 'hex');

/** Session keys as given by a vector (the parts of werift's context that Keys reads). */
function context(profile: number, key: Buffer, salt: Buffer, auth = Buffer.alloc(20)): WeriftContext {
  return {
    profile,
    srtpSessionKey: key,
    srtpSessionSalt: salt,
    srtpSessionAuthTag: auth,
    srtcpSessionKey: key,
    srtcpSessionSalt: salt,
    srtcpSessionAuthTag: auth,
    srtpSSRCStates: {},
    getSrtpSsrcState: () => ({ rolloverCounter: 0, lastSequenceNumber: 0 }),
    getSrtcpSsrcState: () => ({ srtcpIndex: 0 }),
    updateRolloverCount: () => {},
  };
}

describe('RFC 3711 B.2: AES-CM keystream', () => {
  const key = hex('2B7E151628AED2A6ABF7158809CF4F3C');
  const salt = hex('F0F1F2F3F4F5F6F7F8F9FAFBFCFD');
  // Counter blocks 0000, 0001, 0002 and FEFF, FF00, FF01 of SSRC 0, ROC 0, SEQ 0.
  const first = hex(
    'E03EAD0935C95E80E166B16DD92B4EB4 D23513162B02D0F72A43A2FE4A5F97AB 41E95B3BB0A2E8DD477901E4FCA894C0',
  );
  const last = hex(
    'EC8CDF7398607CB0F2D21675EA9EA1E4 362B7C3C6773516318A077D7FC5073AE 6A2CC3787889374FBEB4C81B17BA6C44',
  );
  /** Counter block 0 of SSRC 0, ROC 0, SEQ 0: the salt shifted left 16 bits. */
  const iv = Buffer.concat([salt, Buffer.alloc(2)]);

  it('the windowed keystream gives the first blocks', () => {
    const out = Buffer.alloc(48);
    new CmKeystream(key, salt).apply(0, 0, 0, Buffer.alloc(48), out, 0, iv);
    expect(out.toString('hex')).toBe(first.toString('hex'));
  });

  it('a payload too large for a window gives blocks FEFF to FF01', () => {
    const blocks = 0xff02;
    const out = Buffer.alloc(blocks * 16);
    new CmKeystream(key, salt).apply(0, 0, 0, Buffer.alloc(blocks * 16), out, 0, Buffer.from(iv));
    expect(out.subarray(0, 48).toString('hex')).toBe(first.toString('hex'));
    expect(out.subarray(0xfeff * 16).toString('hex')).toBe(last.toString('hex'));
  });

  it('an RTP packet of SSRC 0, ROC 0, SEQ 0 is encrypted with that keystream (tag by RFC 2104 over it)', () => {
    const keys = new Keys(context(werift.ProtectionProfileAes128CmHmacSha1_80, key, salt));
    const header = Buffer.alloc(12);
    header[0] = 0x80;
    const out = Buffer.alloc(12 + 48 + 10);
    header.copy(out);
    const length = keys.protectRtp(out, 12, Buffer.alloc(48), 0, 0, 0);
    expect(length).toBe(70);
    expect(out.subarray(12, 60).toString('hex')).toBe(first.toString('hex'));
  });
});

describe('RFC 3711 B.3: key derivation (werift derives the keys FastSrtp uses)', () => {
  it('derives the session key, salt and authentication key', () => {
    const session = new werift.SrtpSession({
      keys: {
        localMasterKey: hex('E1F97A0D3E018BE0D64FA32C06DE4139'),
        localMasterSalt: hex('0EC675AD498AFEEBB6960B3AABE6'),
        remoteMasterKey: Buffer.alloc(16),
        remoteMasterSalt: Buffer.alloc(14),
      },
      profile: werift.ProtectionProfileAes128CmHmacSha1_80,
    }) as unknown as { localContext: WeriftContext };
    const c = session.localContext;
    expect(c.srtpSessionKey.toString('hex')).toBe('c61e7a93744f39ee10734afe3ff7a087');
    expect(c.srtpSessionSalt.toString('hex')).toBe('30cbbc08863d8c85d49db34a9ae1');
    expect(c.srtpSessionAuthTag.toString('hex')).toBe('cebe321f6ff7716b6fd4ab49af256a156d38baa4');
  });
});

describe('RFC 2202: HMAC-SHA1', () => {
  const cases: [string, Buffer, Buffer, string][] = [
    ['1', Buffer.alloc(20, 0x0b), Buffer.from('Hi There'), 'b617318655057264e28bc0b6fb378c8ef146be00'],
    ['2', Buffer.from('Jefe'), Buffer.from('what do ya want for nothing?'), 'effcdf6ae5eb2fa2d27416d5f184df9c259a7c79'],
    ['3', Buffer.alloc(20, 0xaa), Buffer.alloc(50, 0xdd), '125d7342b9ac11cd91a39af48aa17b4f63f175d3'],
    [
      '4',
      Buffer.from(Array.from({ length: 25 }, (_, i) => i + 1)),
      Buffer.alloc(50, 0xcd),
      '4c9007f4026250c6bc8414f9bf50c86c2d7235da',
    ],
    ['5', Buffer.alloc(20, 0x0c), Buffer.from('Test With Truncation'), '4c1a03424b55e07fe7f27be1d58bb9324a9a5a04'],
    [
      '6 (80-byte key)',
      Buffer.alloc(80, 0xaa),
      Buffer.from('Test Using Larger Than Block-Size Key - Hash Key First'),
      'aa4ae5e15272d00e95705637ce8a3b55ed402112',
    ],
    [
      '7 (80-byte key, data over a block)',
      Buffer.alloc(80, 0xaa),
      Buffer.from('Test Using Larger Than Block-Size Key and Larger Than One Block-Size Data'),
      'e8e99d0f45237d786d6bbaa7965c7808bbff1a91',
    ],
  ];

  it.each(cases)('test case %s', (_name, key, data, digest) => {
    const mac = new HmacSha1(key);
    const out = Buffer.alloc(20);
    mac.write(data, null, out, 0, 20);
    expect(out.toString('hex')).toBe(digest);
    expect(mac.verify(data, null, hex(digest))).toBe(true);
    // Truncated to SRTP's 80 bits, as test case 5 gives it (digest-96 truncated further).
    const short = new HmacSha1(key, 10);
    expect(short.verify(data, null, hex(digest).subarray(0, 10))).toBe(true);
    const wrong = hex(digest).subarray(0, 10);
    wrong[9] = (wrong[9] as number) ^ 1;
    expect(short.verify(data, null, wrong)).toBe(false);
  });

  it('the authenticated portion of SRTP is the packet followed by the ROC', () => {
    const mac = new HmacSha1(Buffer.alloc(20, 0x0b));
    const out = Buffer.alloc(20);
    mac.write(Buffer.from('Hi Th'), 0x65726500, out, 0, 20); // 'ere\0' as the ROC
    const expected = Buffer.alloc(20);
    mac.write(Buffer.from('Hi There\0'), null, expected, 0, 20);
    expect(out.equals(expected)).toBe(true);
  });
});

describe('HmacSha1.verify refuses a tag of any length but the profile’s', () => {
  const mac = new HmacSha1(Buffer.alloc(20, 0x0b), 10);
  const data = Buffer.from('Hi There');
  const full = hex('b617318655057264e28bc0b6fb378c8ef146be00');

  it.each([0, 1, 4, 9, 11, 20])('%i bytes', (length) => {
    expect(mac.verify(data, null, full.subarray(0, length))).toBe(false);
  });

  it('the 10-byte tag passes', () => {
    expect(mac.verify(data, null, full.subarray(0, 10))).toBe(true);
  });

  it('a tag length outside 1–20 is refused at construction', () => {
    expect(() => new HmacSha1(Buffer.alloc(20), 0)).toThrow(RangeError);
    expect(() => new HmacSha1(Buffer.alloc(20), 21)).toThrow(RangeError);
  });
});

describe('RFC 7714 16.1 and 17.1: AEAD_AES_128_GCM', () => {
  const key = hex('000102030405060708090a0b0c0d0e0f');
  const salt = hex('517569642070726f2071756f');
  const keys = () => new Keys(context(werift.ProtectionProfileAeadAes128Gcm, key, salt, Buffer.alloc(0)));
  const rtp = hex(`8040f17b 8041f8d3 5501a0b2 47616c6c 69612065 7374206f 6d6e6973 20646976 69736120 696e2070 61727465
    73207472 6573`);
  const srtp = hex(`8040f17b 8041f8d3 5501a0b2 f24de3a3 fb34de6c acba861c 9d7e4bca be633bd5 0d294e6f 42a5f47a 51c7d19b
    36de3adf 8833899d 7f27beb1 6a9152cf 765ee439 0cce`);
  const rtcp = hex(`81c8000d 4d617273 4e545031 4e545032 52545020 0000042a 0000e930 4c756e61 deadbeef deadbeef deadbeef
    deadbeef deadbeef`);
  const srtcp = hex(`81c8000d 4d617273 63e94885 dcdab67c a727d766 2f6b7e99 7ff5c0f7 6c06f32d c676a5f1 730d6fda 4ce09b46
    86303ded 0bb9275b c84aa458 96cf4d2f c5abf872 45d9eade 800005d4`);

  it('protects the RTP packet (SSRC 5501a0b2, ROC 0, SEQ f17b)', () => {
    const out = Buffer.alloc(srtp.length);
    rtp.copy(out, 0, 0, 12);
    const length = keys().protectRtp(out, 12, rtp.subarray(12), 0x5501a0b2, 0xf17b, 0);
    expect(out.subarray(0, length).toString('hex')).toBe(srtp.toString('hex'));
  });

  it('unprotects it, and refuses it with one bit of the tag changed', () => {
    expect(keys().unprotectRtp(srtp, 12, 0x5501a0b2, 0xf17b, 0)?.toString('hex')).toBe(rtp.toString('hex'));
    const tampered = Buffer.from(srtp);
    tampered[tampered.length - 1] = (tampered[tampered.length - 1] as number) ^ 1;
    expect(keys().unprotectRtp(tampered, 12, 0x5501a0b2, 0xf17b, 0)).toBeNull();
  });

  it('protects the RTCP packet with SRTCP index 5d4', () => {
    expect(keys().protectRtcp(rtcp, 0x5d4).toString('hex')).toBe(srtcp.toString('hex'));
  });

  it('unprotects it, and refuses it with one bit of the ciphertext changed', () => {
    expect(keys().unprotectRtcp(srtcp)?.toString('hex')).toBe(rtcp.toString('hex'));
    const tampered = Buffer.from(srtcp);
    tampered[10] = (tampered[10] as number) ^ 1;
    expect(keys().unprotectRtcp(tampered)).toBeNull();
  });
});

describe('the fast path is a checked patch', () => {
  /** A DTLS transport whose SRTP sessions werift has set up (with fixed keys instead of a DTLS handshake). */
  function transport() {
    const keys = {
      localMasterKey: Buffer.alloc(16, 1),
      localMasterSalt: Buffer.alloc(14, 2),
      remoteMasterKey: Buffer.alloc(16, 3),
      remoteMasterSalt: Buffer.alloc(14, 4),
    };
    const profile = werift.ProtectionProfileAes128CmHmacSha1_80;
    return Object.assign(Object.create(werift.RTCDtlsTransport.prototype) as werift.RTCDtlsTransport, {
      srtp: new werift.SrtpSession({ keys, profile }),
      srtcp: new werift.SrtcpSession({ keys, profile }),
    });
  }

  /** werift with one private field of its SRTP context renamed, as an upgrade might do. */
  function changedWerift(): typeof werift {
    class SrtpSession extends werift.SrtpSession {
      constructor(...args: ConstructorParameters<typeof werift.SrtpSession>) {
        super(...args);
        const c = this.localContext as unknown as Record<string, unknown>;
        c.sessionKey = c.srtpSessionKey;
        delete c.srtpSessionKey;
      }
    }
    return { ...werift, SrtpSession } as typeof werift;
  }

  it("werift's internals as pinned pass the start-up check; a renamed field fails it", () => {
    expect(checkWeriftShape()).toBeNull();
    expect(checkWeriftShape(changedWerift())).toBe('localContext.srtpSessionKey is not a Buffer');
  });

  it('SFU_FAST_SRTP turns it off; unset or anything else leaves it on', () => {
    for (const off of ['off', '0', 'false', 'no', ' OFF ']) expect(fastSrtpFromEnv({ SFU_FAST_SRTP: off })).toBe(false);
    expect(fastSrtpFromEnv({})).toBe(true);
    expect(fastSrtpFromEnv({ SFU_FAST_SRTP: 'on' })).toBe(true);
  });

  it("off by the setting or by a failed check, transports keep werift's code; on, they get the fast path", () => {
    try {
      expect(applyFastSrtpPatch(false)).toEqual({ active: false, reason: 'turned off (SFU_FAST_SRTP=off)' });
      const off = transport();
      const weriftEncrypt = off.srtp.encrypt;
      expect(afterSrtpKeys(off)).toBeNull();
      expect(off.srtp.encrypt).toBe(weriftEncrypt);
      expect(fastSrtpOf(off)).toBeNull();

      const warnings: string[] = [];
      const failed = applyFastSrtpPatch(
        true,
        (m) => warnings.push(m),
        () => checkWeriftShape(changedWerift()),
      );
      expect(failed).toEqual({ active: false, reason: 'localContext.srtpSessionKey is not a Buffer' });
      expect(warnings).toEqual(["fast SRTP off, werift's own SRTP runs: localContext.srtpSessionKey is not a Buffer"]);
      expect(afterSrtpKeys(transport())).toBeNull();

      expect(applyFastSrtpPatch(true)).toEqual({ active: true, reason: null });
      const on = transport();
      const fast = afterSrtpKeys(on);
      expect(fast).not.toBeNull();
      expect(fastSrtpOf(on)).toBe(fast);
      expect(on.srtp.encrypt).not.toBe(weriftEncrypt);
    } finally {
      applyFastSrtpPatch(true);
    }
    expect(fastSrtpStatus()).toEqual({ active: true, reason: null });
  });

  it('a transport whose session lacks what the fast path reads keeps werift’s code', () => {
    applyFastSrtpPatch(true);
    const t = transport();
    delete (t.srtp.localContext as unknown as Record<string, unknown>).srtpSSRCStates;
    const weriftEncrypt = t.srtp.encrypt;
    expect(afterSrtpKeys(t)).toBeNull();
    expect(t.srtp.encrypt).toBe(weriftEncrypt);
  });
});
