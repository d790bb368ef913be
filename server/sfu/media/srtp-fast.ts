// SRTP and SRTCP for werift's DTLS transports, faster than werift's own: werift parses every packet into objects,
// copies it several times and, for AES_CM, rebuilds header and state objects per packet (about 40 µs to unprotect
// one RTP packet). This works on the raw bytes with one output buffer per packet. Keys and the per-SSRC
// rollover/index state are werift's own (its contexts derive them; its NACK retransmissions and sender reports
// keep going through the same state), so both paths stay interchangeable packet by packet.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import * as werift from 'werift';
import { HmacSha1 } from './hmac-sha1';
import { CmKeystream } from './srtp-keystream';

const PROFILE_AES_CM = werift.ProtectionProfileAes128CmHmacSha1_80;
const PROFILE_GCM = werift.ProtectionProfileAeadAes128Gcm;
const CM_TAG = 10;
const GCM_TAG = 16;
const SRTCP_INDEX_BYTES = 4;
const MAX_SRTCP_INDEX = 0x7fffffff;

/** werift's per-SSRC RTP state (context.ts): rollover counter and the last sequence number seen. */
interface RtpState {
  rolloverCounter: number;
  lastSequenceNumber: number;
  rolloverHasProcessed?: boolean;
}

/** The parts of werift's SRTP/SRTCP context this uses. */
export interface WeriftContext {
  profile: number;
  srtpSessionKey: Buffer;
  srtpSessionSalt: Buffer;
  srtpSessionAuthTag: Buffer;
  srtcpSessionKey: Buffer;
  srtcpSessionSalt: Buffer;
  srtcpSessionAuthTag: Buffer;
  srtpSSRCStates: Record<number, RtpState>;
  getSrtpSsrcState(ssrc: number): RtpState;
  getSrtcpSsrcState(ssrc: number): { srtcpIndex: number };
  updateRolloverCount(sequenceNumber: number, state: RtpState): void;
}

interface WeriftSession {
  localContext: WeriftContext;
  remoteContext: WeriftContext;
  encrypt: (...args: never[]) => Buffer;
  decrypt: (buf: Buffer) => Buffer;
}

/** The keys of one direction, with the per-profile work (exported for the RFC known-answer tests). */
export class Keys {
  readonly gcm: boolean;
  readonly tagLength: number;
  private readonly rtpKey: Buffer;
  private readonly rtpSalt: Buffer;
  private readonly rtpAuth: HmacSha1;
  private readonly rtcpKey: Buffer;
  private readonly rtcpSalt: Buffer;
  private readonly rtcpAuth: HmacSha1;
  /** AES_CM keystream of RTP packets, made ahead per SSRC (null with GCM). */
  private readonly keystream: CmKeystream | null;
  /** The same for SRTCP: its counter is RTP's with the SRTCP index split as ROC (high) and sequence (low 16 bits). */
  private readonly rtcpKeystream: CmKeystream | null;
  /** Scratch for IVs; used synchronously only. */
  private readonly iv = Buffer.alloc(16);

  constructor(readonly context: WeriftContext) {
    this.gcm = context.profile === PROFILE_GCM;
    if (!this.gcm && context.profile !== PROFILE_AES_CM) throw new Error(`unsupported SRTP profile ${context.profile}`);
    this.tagLength = this.gcm ? GCM_TAG : CM_TAG;
    this.rtpKey = context.srtpSessionKey;
    this.rtpSalt = context.srtpSessionSalt;
    this.rtpAuth = new HmacSha1(context.srtpSessionAuthTag, CM_TAG);
    this.rtcpKey = context.srtcpSessionKey;
    this.rtcpSalt = context.srtcpSessionSalt;
    this.rtcpAuth = new HmacSha1(context.srtcpSessionAuthTag, CM_TAG);
    this.keystream = this.gcm ? null : new CmKeystream(this.rtpKey, this.rtpSalt);
    this.rtcpKeystream = this.gcm ? null : new CmKeystream(this.rtcpKey, this.rtcpSalt);
  }

  /** RFC 3711 4.1.1 counter (AES_CM) or RFC 7714 8.1 IV (GCM) for an RTP packet. */
  private rtpIv(ssrc: number, roc: number, seq: number): Buffer {
    const iv = this.iv;
    const salt = this.rtpSalt;
    if (this.gcm) {
      const v = iv.subarray(0, 12);
      v.writeUInt16BE(0, 0);
      v.writeUInt32BE(ssrc, 2);
      v.writeUInt32BE(roc >>> 0, 6);
      v.writeUInt16BE(seq, 10);
      for (let i = 0; i < 12; i++) v[i] = (v[i] as number) ^ (salt[i] as number);
      return v;
    }
    iv.writeUInt32BE(0, 0);
    iv.writeUInt32BE(ssrc, 4);
    iv.writeUInt32BE(roc >>> 0, 8);
    iv.writeUInt32BE((seq << 16) >>> 0, 12);
    for (let i = 0; i < 14; i++) iv[i] = (iv[i] as number) ^ (salt[i] as number);
    return iv;
  }

  /**
   * Protects an RTP packet whose header (headerLength bytes) is already in `out` and whose plaintext payload is
   * `payload`; `out` must have room for header, payload and tag. Returns the packet length.
   */
  protectRtp(out: Buffer, headerLength: number, payload: Buffer, ssrc: number, seq: number, roc: number): number {
    const iv = this.rtpIv(ssrc, roc, seq);
    const end = headerLength + payload.length;
    if (this.gcm) {
      const cipher = createCipheriv('aes-128-gcm', this.rtpKey, iv);
      cipher.setAAD(out.subarray(0, headerLength));
      cipher.update(payload).copy(out, headerLength);
      cipher.final();
      cipher.getAuthTag().copy(out, end);
      return end + GCM_TAG;
    }
    (this.keystream as CmKeystream).apply(ssrc, roc, seq, payload, out, headerLength, iv);
    this.rtpAuth.write(out.subarray(0, end), roc, out, end, CM_TAG);
    return end + CM_TAG;
  }

  /** Checks and decrypts an SRTP packet; null when it does not authenticate. */
  unprotectRtp(packet: Buffer, payloadOffset: number, ssrc: number, seq: number, roc: number): Buffer | null {
    const tagOffset = packet.length - this.tagLength;
    const iv = this.rtpIv(ssrc, roc, seq);
    const out = Buffer.allocUnsafe(tagOffset);
    packet.copy(out, 0, 0, payloadOffset);
    if (this.gcm) {
      const decipher = createDecipheriv('aes-128-gcm', this.rtpKey, iv);
      decipher.setAAD(packet.subarray(0, payloadOffset));
      decipher.setAuthTag(packet.subarray(tagOffset));
      decipher.update(packet.subarray(payloadOffset, tagOffset)).copy(out, payloadOffset);
      try {
        decipher.final();
      } catch {
        return null;
      }
      return out;
    }
    if (!this.rtpAuth.verify(packet.subarray(0, tagOffset), roc, packet.subarray(tagOffset))) return null;
    (this.keystream as CmKeystream).apply(
      ssrc,
      roc,
      seq,
      packet.subarray(payloadOffset, tagOffset),
      out,
      payloadOffset,
      iv,
    );
    return out;
  }

  /** RFC 3711 3.4 / RFC 7714 9: encrypts everything after the first 8 bytes, appends E|index and the tag. */
  protectRtcp(rtcp: Buffer, index: number): Buffer {
    const ssrc = rtcp.readUInt32BE(4);
    const body = rtcp.subarray(8);
    const iv = this.rtcpIv(ssrc, index);
    const eIndex = (0x80000000 | index) >>> 0;
    if (this.gcm) {
      const out = Buffer.allocUnsafe(rtcp.length + GCM_TAG + SRTCP_INDEX_BYTES);
      rtcp.copy(out, 0, 0, 8);
      out.writeUInt32BE(eIndex, out.length - SRTCP_INDEX_BYTES);
      const cipher = createCipheriv('aes-128-gcm', this.rtcpKey, iv);
      cipher.setAAD(Buffer.concat([rtcp.subarray(0, 8), out.subarray(out.length - SRTCP_INDEX_BYTES)]));
      cipher.update(body).copy(out, 8);
      cipher.final();
      cipher.getAuthTag().copy(out, rtcp.length);
      return out;
    }
    const out = Buffer.allocUnsafe(rtcp.length + SRTCP_INDEX_BYTES + CM_TAG);
    rtcp.copy(out, 0, 0, 8);
    (this.rtcpKeystream as CmKeystream).apply(ssrc, index >>> 16, index & 0xffff, body, out, 8, iv);
    out.writeUInt32BE(eIndex, rtcp.length);
    const authEnd = rtcp.length + SRTCP_INDEX_BYTES;
    this.rtcpAuth.write(out.subarray(0, authEnd), null, out, authEnd, CM_TAG);
    return out;
  }

  /** Checks and decrypts an SRTCP packet; null when it does not authenticate. */
  unprotectRtcp(packet: Buffer): Buffer | null {
    const tagLength = this.tagLength;
    if (packet.length < 8 + tagLength + SRTCP_INDEX_BYTES) return null;
    const ssrc = packet.readUInt32BE(4);
    if (this.gcm) {
      const indexOffset = packet.length - SRTCP_INDEX_BYTES;
      const tagOffset = indexOffset - GCM_TAG;
      const eIndex = packet.readUInt32BE(indexOffset);
      const encrypted = eIndex >>> 31 === 1;
      const iv = this.rtcpIv(ssrc, eIndex & MAX_SRTCP_INDEX);
      const decipher = createDecipheriv('aes-128-gcm', this.rtcpKey, iv);
      const trailer = packet.subarray(indexOffset);
      decipher.setAAD(Buffer.concat([packet.subarray(0, encrypted ? 8 : tagOffset), trailer]));
      decipher.setAuthTag(packet.subarray(tagOffset, indexOffset));
      const out = Buffer.allocUnsafe(tagOffset);
      packet.copy(out, 0, 0, encrypted ? 8 : tagOffset);
      const plain = decipher.update(encrypted ? packet.subarray(8, tagOffset) : Buffer.alloc(0));
      try {
        decipher.final();
      } catch {
        return null;
      }
      if (encrypted) plain.copy(out, 8);
      return out;
    }
    const tagOffset = packet.length - CM_TAG;
    const indexOffset = tagOffset - SRTCP_INDEX_BYTES;
    if (!this.rtcpAuth.verify(packet.subarray(0, tagOffset), null, packet.subarray(tagOffset))) return null;
    const out = Buffer.allocUnsafe(indexOffset);
    const eIndex = packet.readUInt32BE(indexOffset);
    if (eIndex >>> 31 === 0) {
      packet.copy(out, 0, 0, indexOffset);
      return out;
    }
    packet.copy(out, 0, 0, 8);
    const index = eIndex & MAX_SRTCP_INDEX;
    const iv = this.rtcpIv(ssrc, index);
    (this.rtcpKeystream as CmKeystream).apply(
      ssrc,
      index >>> 16,
      index & 0xffff,
      packet.subarray(8, indexOffset),
      out,
      8,
      iv,
    );
    return out;
  }

  private rtcpIv(ssrc: number, index: number): Buffer {
    const iv = this.iv;
    const salt = this.rtcpSalt;
    if (this.gcm) {
      const v = iv.subarray(0, 12);
      v.writeUInt16BE(0, 0);
      v.writeUInt32BE(ssrc, 2);
      v.writeUInt16BE(0, 6);
      v.writeUInt32BE(index >>> 0, 8);
      for (let i = 0; i < 12; i++) v[i] = (v[i] as number) ^ (salt[i] as number);
      return v;
    }
    iv.writeUInt32BE(0, 0);
    iv.writeUInt32BE(ssrc, 4);
    iv.writeUInt16BE(0, 8);
    iv.writeUInt16BE(index >>> 16, 10);
    iv.writeUInt32BE(((index & 0xffff) << 16) >>> 0, 12);
    for (let i = 0; i < 14; i++) iv[i] = (iv[i] as number) ^ (salt[i] as number);
    return iv;
  }
}

/** Offset of the payload in an RTP packet of `length` bytes (before the tag), or -1 when the header does not fit. */
export function rtpPayloadOffset(packet: Buffer, length: number): number {
  if (length < 12) return -1;
  const first = packet[0] as number;
  let offset = 12 + (first & 0x0f) * 4;
  if (first & 0x10) {
    if (offset + 4 > length) return -1;
    offset += 4 + packet.readUInt16BE(offset + 2) * 4;
  }
  return offset <= length ? offset : -1;
}

/** One DTLS transport's SRTP (RTP) and SRTCP, both directions. */
export class FastSrtp {
  private readonly local: Keys;
  private readonly remote: Keys;
  private readonly localRtcp: Keys;
  private readonly remoteRtcp: Keys;

  constructor(
    srtp: WeriftSession,
    private readonly srtcp: WeriftSession,
  ) {
    this.local = new Keys(srtp.localContext);
    this.remote = new Keys(srtp.remoteContext);
    this.localRtcp = new Keys(srtcp.localContext);
    this.remoteRtcp = new Keys(srtcp.remoteContext);
  }

  /** Bytes an SRTP packet adds to the RTP packet (the tag). */
  get rtpOverhead(): number {
    return this.local.tagLength;
  }

  /**
   * Protects an outgoing RTP packet in place: `out` holds the header (headerLength bytes) and has room for the
   * payload and the tag. Advances the SSRC's rollover state as werift does. Returns the packet length.
   */
  protectRtp(out: Buffer, headerLength: number, payload: Buffer, ssrc: number, seq: number): number {
    const ctx = this.local.context;
    const state = ctx.getSrtpSsrcState(ssrc);
    ctx.updateRolloverCount(seq, state);
    return this.local.protectRtp(out, headerLength, payload, ssrc, seq, state.rolloverCounter);
  }

  /** werift's SrtpSession.encrypt(payload, header). */
  encryptRtp = (payload: Buffer, header: werift.RtpHeader): Buffer => {
    const headerBytes = header.serialize(header.serializeSize);
    const out = Buffer.allocUnsafe(headerBytes.length + payload.length + this.local.tagLength);
    headerBytes.copy(out);
    const length = this.protectRtp(out, headerBytes.length, payload, header.ssrc, header.sequenceNumber);
    return out.subarray(0, length);
  };

  /** werift's SrtpSession.decrypt: the RTP packet without the tag; the rollover state moves only if it authenticates. */
  decryptRtp = (packet: Buffer): Buffer => {
    const keys = this.remote;
    const tagOffset = packet.length - keys.tagLength;
    const payloadOffset = tagOffset >= 12 ? rtpPayloadOffset(packet, tagOffset) : -1;
    if (payloadOffset < 0) throw new werift.SrtpAuthenticationError('Failed to authenticate SRTP packet');
    const ssrc = packet.readUInt32BE(8);
    const seq = packet.readUInt16BE(2);
    const ctx = keys.context;
    const existing = ctx.srtpSSRCStates[ssrc];
    const next: RtpState = existing
      ? {
          rolloverCounter: existing.rolloverCounter,
          lastSequenceNumber: existing.lastSequenceNumber,
          rolloverHasProcessed: existing.rolloverHasProcessed,
        }
      : { rolloverCounter: 0, lastSequenceNumber: 0 };
    ctx.updateRolloverCount(seq, next);
    const out = keys.unprotectRtp(packet, payloadOffset, ssrc, seq, next.rolloverCounter);
    if (!out) throw new werift.SrtpAuthenticationError('Failed to authenticate SRTP packet');
    if ((out[0] as number) & 0x20) {
      // Padding: the count in the last byte must fit the payload (werift's finalizeSrtpRtpHeader).
      const padding = out.length > payloadOffset ? (out[out.length - 1] as number) : 0;
      if (padding === 0 || padding > out.length - payloadOffset) {
        throw new werift.SrtpAuthenticationError('Failed to authenticate SRTP packet');
      }
    }
    if (existing) {
      existing.rolloverCounter = next.rolloverCounter;
      existing.lastSequenceNumber = next.lastSequenceNumber;
      existing.rolloverHasProcessed = next.rolloverHasProcessed;
    } else {
      ctx.srtpSSRCStates[ssrc] = { ssrc, ...next } as RtpState;
    }
    return out;
  };

  /** werift's SrtcpSession.encrypt: the next SRTCP index of the packet's SSRC. */
  encryptRtcp = (rtcp: Buffer): Buffer => {
    const state = this.localRtcp.context.getSrtcpSsrcState(rtcp.readUInt32BE(4));
    state.srtcpIndex++;
    if (state.srtcpIndex > MAX_SRTCP_INDEX) state.srtcpIndex = 0;
    return this.localRtcp.protectRtcp(rtcp, state.srtcpIndex);
  };

  /** werift's SrtcpSession.decrypt. */
  decryptRtcp = (packet: Buffer): Buffer => {
    const out = this.remoteRtcp.unprotectRtcp(packet);
    if (!out) throw new werift.SrtpAuthenticationError('Failed to authenticate SRTCP packet');
    return out;
  };

  /** Puts this in place of werift's cipher work on the transport's sessions. */
  install(srtp: WeriftSession): void {
    srtp.encrypt = this.encryptRtp as WeriftSession['encrypt'];
    srtp.decrypt = this.decryptRtp;
    this.srtcp.encrypt = this.encryptRtcp as WeriftSession['encrypt'];
    this.srtcp.decrypt = this.decryptRtcp;
  }
}

interface TransportSessions {
  srtp?: WeriftSession;
  srtcp?: WeriftSession;
}

const installed = new WeakMap<object, FastSrtp>();

/** The fast SRTP of a DTLS transport whose keys are negotiated, or null (not yet, or an unknown profile). */
export function fastSrtpOf(transport: werift.RTCDtlsTransport): FastSrtp | null {
  const srtp = (transport as unknown as TransportSessions).srtp;
  return srtp ? (installed.get(srtp) ?? null) : null;
}

/** Replaces werift's SRTP work on a transport whose sessions are set up; null for a profile this does not know. */
export function installFastSrtp(transport: werift.RTCDtlsTransport): FastSrtp | null {
  const { srtp, srtcp } = transport as unknown as TransportSessions;
  if (!srtp || !srtcp) return null;
  if (sessionProblem(srtp, srtp.localContext?.profile === PROFILE_GCM)) return null;
  let fast: FastSrtp;
  try {
    fast = new FastSrtp(srtp, srtcp);
  } catch {
    return null; // werift's own code keeps working
  }
  fast.install(srtp);
  installed.set(srtp, fast);
  return fast;
}

/** SFU_FAST_SRTP: on unless off, 0, false or no. */
export function fastSrtpFromEnv(env: NodeJS.ProcessEnv): boolean {
  return !['off', '0', 'false', 'no'].includes((env.SFU_FAST_SRTP ?? '').trim().toLowerCase());
}

/** Whether the patch below runs, and why not when it does not. */
export interface FastSrtpStatus {
  active: boolean;
  /** Why werift's own SRTP code runs instead: turned off by the setting, or werift's shape changed. */
  reason: string | null;
}

let patched = false;
let status: FastSrtpStatus = { active: false, reason: 'not enabled' };

export function fastSrtpStatus(): FastSrtpStatus {
  return status;
}

/**
 * The fast-SRTP patch. werift's RTCDtlsTransport.updateSrtpSession (run when DTLS has derived the keys, and again
 * on a renegotiation) is wrapped so that the transport's SRTP and SRTCP sessions then encrypt and decrypt with
 * FastSrtp. FastSrtp reads werift's private key and rollover state, so the patch takes effect only after
 * `checkWeriftShape` finds that state where it expects it and a self-test gives werift's own bytes; otherwise
 * werift's code runs unchanged and the reason is logged. `enabled: false` (SFU_FAST_SRTP=off) turns it off. The
 * setting is process-wide: werift's prototype is shared by every media server in the process.
 */
export function applyFastSrtpPatch(
  enabled: boolean,
  warn: (message: string) => void = () => {},
  check: () => string | null = checkWeriftShape,
): FastSrtpStatus {
  if (!enabled) {
    status = { active: false, reason: 'turned off (SFU_FAST_SRTP=off)' };
    return status;
  }
  const problem = check();
  if (problem) {
    status = { active: false, reason: problem };
    warn(`fast SRTP off, werift's own SRTP runs: ${problem}`);
    return status;
  }
  status = { active: true, reason: null };
  if (patched) return status;
  patched = true;
  const proto = werift.RTCDtlsTransport.prototype as unknown as {
    updateSrtpSession(this: werift.RTCDtlsTransport): void;
  };
  const original = proto.updateSrtpSession;
  proto.updateSrtpSession = function (this: werift.RTCDtlsTransport) {
    original.call(this);
    afterSrtpKeys(this);
  };
  return status;
}

/** The patch's own step, once werift has set up a transport's sessions. */
export function afterSrtpKeys(transport: werift.RTCDtlsTransport): FastSrtp | null {
  return status.active ? installFastSrtp(transport) : null;
}

const KEY_FIELDS = [
  'srtpSessionKey',
  'srtpSessionSalt',
  'srtpSessionAuthTag',
  'srtcpSessionKey',
  'srtcpSessionSalt',
  'srtcpSessionAuthTag',
] as const;
const CONTEXT_METHODS = ['getSrtpSsrcState', 'getSrtcpSsrcState', 'updateRolloverCount'] as const;

/** What is wrong with a werift SRTP session for FastSrtp, or null when it has everything FastSrtp reads. */
function sessionProblem(session: unknown, gcm: boolean): string | null {
  const s = session as Partial<WeriftSession> | undefined;
  if (typeof s?.encrypt !== 'function' || typeof s.decrypt !== 'function') return 'session without encrypt/decrypt';
  for (const side of ['localContext', 'remoteContext'] as const) {
    const context = s[side] as unknown as Record<string, unknown> | undefined;
    if (!context) return `session without ${side}`;
    for (const field of KEY_FIELDS) {
      if (!Buffer.isBuffer(context[field])) return `${side}.${field} is not a Buffer`;
    }
    for (const kind of ['srtp', 'srtcp'] as const) {
      // werift derives a 14-byte salt for GCM too; its IV uses the first 12.
      if ((context[`${kind}SessionKey`] as Buffer).length !== 16) return `${side}.${kind}SessionKey is not 16 bytes`;
      if ((context[`${kind}SessionSalt`] as Buffer).length < (gcm ? 12 : 14)) {
        return `${side}.${kind}SessionSalt is too short`;
      }
      if (!gcm && (context[`${kind}SessionAuthTag`] as Buffer).length !== 20) {
        return `${side}.${kind}SessionAuthTag is not 20 bytes`;
      }
    }
    for (const method of CONTEXT_METHODS) {
      if (typeof context[method] !== 'function') return `${side}.${method} is not a function`;
    }
    if (typeof context.srtpSSRCStates !== 'object' || context.srtpSSRCStates === null) {
      return `${side}.srtpSSRCStates is missing`;
    }
    if (context.profile !== (gcm ? PROFILE_GCM : PROFILE_AES_CM)) return `${side}.profile is not the session's`;
  }
  return null;
}

/**
 * Checks that werift still keeps its SRTP state where FastSrtp reads it, then runs FastSrtp beside werift's own code
 * with the same random keys, for both profiles: the same bytes out, each side reading the other's packets across a
 * sequence number wrap. Returns what differs, or null.
 */
export function checkWeriftShape(lib: typeof werift = werift): string | null {
  try {
    const transport = lib.RTCDtlsTransport?.prototype as unknown as Record<string, unknown> | undefined;
    if (typeof transport?.updateSrtpSession !== 'function') return 'RTCDtlsTransport.updateSrtpSession is missing';
    for (const profile of [PROFILE_AES_CM, PROFILE_GCM]) {
      const gcm = profile === PROFILE_GCM;
      const salt = gcm ? 12 : 14;
      const keys = {
        localMasterKey: randomBytes(16),
        localMasterSalt: randomBytes(salt),
        remoteMasterKey: randomBytes(16),
        remoteMasterSalt: randomBytes(salt),
      };
      const peerKeys = {
        localMasterKey: keys.remoteMasterKey,
        localMasterSalt: keys.remoteMasterSalt,
        remoteMasterKey: keys.localMasterKey,
        remoteMasterSalt: keys.localMasterSalt,
      };
      const reference = new lib.SrtpSession({ keys, profile });
      const referenceRtcp = new lib.SrtcpSession({ keys, profile });
      const srtp = new lib.SrtpSession({ keys, profile });
      const srtcp = new lib.SrtcpSession({ keys, profile });
      const peer = new lib.SrtpSession({ keys: peerKeys, profile });
      const peerRtcp = new lib.SrtcpSession({ keys: peerKeys, profile });
      for (const session of [srtp, srtcp]) {
        const problem = sessionProblem(session, gcm);
        if (problem) return problem;
      }
      const fast = new FastSrtp(srtp as unknown as WeriftSession, srtcp as unknown as WeriftSession);
      fast.install(srtp as unknown as WeriftSession);
      for (const seq of [65534, 65535, 0, 1]) {
        const header = new lib.RtpHeader({ payloadType: 96, sequenceNumber: seq, timestamp: seq * 90, ssrc: 7 });
        const payload = randomBytes(100);
        const ours = srtp.encrypt(payload, header);
        if (!ours.equals(reference.encrypt(payload, header))) return 'SRTP output differs from werift';
        if (!peer.decrypt(ours).subarray(12).equals(payload)) return "werift cannot read FastSrtp's SRTP";
        const back = peer.encrypt(payload, header);
        if (!srtp.decrypt(back).subarray(12).equals(payload)) return "FastSrtp cannot read werift's SRTP";
      }
      const rtcp = Buffer.concat([Buffer.from([0x81, 0xc9, 0, 7, 0, 0, 0, 7]), randomBytes(24)]);
      const ours = srtcp.encrypt(rtcp);
      if (!ours.equals(referenceRtcp.encrypt(rtcp))) return 'SRTCP output differs from werift';
      if (!peerRtcp.decrypt(ours).equals(rtcp)) return "werift cannot read FastSrtp's SRTCP";
      if (!srtcp.decrypt(peerRtcp.encrypt(rtcp)).equals(rtcp)) return "FastSrtp cannot read werift's SRTCP";
    }
    return null;
  } catch (error) {
    return `self-test failed: ${(error as Error).message}`;
  }
}
