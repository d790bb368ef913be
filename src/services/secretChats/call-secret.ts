// The call secret of a secret chat's call (docs/secret-chats.md "Calls": "Who holds the call's key"): a random
// 32-byte secret only the devices in the call hold, made anew when someone leaves, mixed with the group's call key
// (the MLS exporter of the epoch) into the media key. So a removal from the group (a new epoch) and a leave from the
// call (a new secret) both give a key the one who went cannot derive, and a joiner gets only the secret of now.
//
// Loaded with the call (the secret call actor's effects), never in the first bundle. Pure of LiveKit: the call view
// carries the messages on the room's data channel (topic CALL_SECRET_TOPIC, secretCall.protocol.ts) and tells the
// room's events.
//
// - **Hello.** Each device in the call makes an ephemeral X25519 key pair (HPKE's DHKEM) when it connects, and tells
//   the others its public key with HMAC-SHA-256(auth key of the epoch, label ‖ chat ‖ its identity ‖ key ‖ epoch). The
//   auth key comes from the group's call key (HKDF, its own label), so only a member of the group in that epoch makes
//   a hello that holds: the server, which relays them, cannot put a key of its own in a participant's place.
// - **Secret.** The lead — the lowest identity among the members in the call (contract/guest-rules.ts `leadsRekey`) —
//   makes the secret: on connecting alone, 2 s after connecting when no one had one (devices that came together),
//   and a new one (generation + 1) when a member or a guest leaves. It seals it to each participant's hello key with
//   HPKE (RFC 9180, PSK mode with the auth key: DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, AES-128-GCM), the chat,
//   sender, recipient, epoch and generation in
//   `info`. To a hello (a joiner's, or anyone's after an epoch change) every device holding the secret answers with
//   it, and to a hello from a device it had not heard from, with its own hello (the first may have been missed).
// - **Which secret.** A higher generation wins; of two of one generation (two devices that both thought they lead),
//   the one made by the lower identity (its maker is sealed with it), so every device settles on the same one. An
//   older generation is ignored.
// - **Media key** = HKDF-SHA256(secret, salt = the group's call key, label ‖ chat ‖ epoch ‖ generation), set in
//   LiveKit's keyring under `epoch + generation` (both only grow, so a newer key has a higher number).
import { Aes128Gcm, CipherSuite, DhkemX25519HkdfSha256, HkdfSha256 } from '@hpke/core';
import { isGuestIdentity as isGuest, leadsRekey } from '../../contract/guest-rules';

const HELLO_LABEL = 'beseda call hello';
const AUTH_LABEL = 'beseda call auth';
const SEAL_LABEL = 'beseda call secret';
const MEDIA_LABEL = 'beseda call media';
const SECRET_BYTES = 32;
/** Epochs whose auth keys are kept for messages of devices a commit behind or ahead. */
const EPOCHS_KEPT = 4;
/** Messages of an epoch this device has not reached yet, kept until it does. */
const PENDING_MAX = 64;

/** The media key LiveKit encrypts frames with: `epoch` is its order (group epoch + generation). */
export interface MediaKey {
  epoch: number;
  key: Uint8Array;
}

/** A message to put on the data channel: to the named participants, or to everyone (`to` null). */
export interface Outgoing {
  payload: Uint8Array;
  to: string[] | null;
}

/** What one input of the exchange gives: messages to send, and the new media key when it changed. */
export interface ExchangeStep {
  send: Outgoing[];
  key: MediaKey | null;
}

interface Hello {
  v: 1;
  t: 'hello';
  e: number;
  pub: string;
  mac: string;
}
interface Sealed {
  v: 1;
  t: 'secret';
  e: number;
  g: number;
  /** Who made the secret (the sender may be passing on another's). */
  by: string;
  to: Record<string, string>;
}
type Message = Hello | Sealed;

const utf8 = (s: string) => new TextEncoder().encode(s);
const suite = () => new CipherSuite({ kem: new DhkemX25519HkdfSha256(), kdf: new HkdfSha256(), aead: new Aes128Gcm() });

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
const u64 = (n: number) => {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setBigUint64(0, BigInt(n));
  return b;
};
/** A length-prefixed field, so `a‖b` and `a'‖b'` never coincide. */
const field = (bytes: Uint8Array) => concat(new Uint8Array([bytes.length >> 8, bytes.length & 0xff]), bytes);

export function toB64(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}
function fromB64(text: string): Uint8Array {
  if (!/^[\w-]*$/.test(text)) throw new Error('bad base64url');
  const s = atob(text.replaceAll('-', '+').replaceAll('_', '/') + '='.repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

async function hkdf(ikm: Uint8Array, salt: Uint8Array, info: Uint8Array): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', ikm.slice(), 'HKDF', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits(
    { name: 'HKDF', hash: 'SHA-256', salt: salt.slice(), info: info.slice() },
    key,
    256,
  );
  return new Uint8Array(bits);
}

/** The media key of a group call key (epoch) and a call secret (generation). */
export async function mediaKey(
  conversationId: string,
  base: { epoch: number; key: Uint8Array },
  secret: { g: number; bytes: Uint8Array },
): Promise<MediaKey> {
  const info = concat(field(utf8(MEDIA_LABEL)), field(utf8(conversationId)), u64(base.epoch), u64(secret.g));
  return { epoch: base.epoch + secret.g, key: await hkdf(secret.bytes, base.key, info) };
}

function parse(payload: Uint8Array): Message | null {
  try {
    const m = JSON.parse(new TextDecoder().decode(payload)) as Record<
      'v' | 't' | 'e' | 'pub' | 'mac' | 'g' | 'by' | 'to',
      unknown
    >;
    if (typeof m !== 'object' || m === null) return null;
    if (m.v !== 1 || !Number.isSafeInteger(m.e) || (m.e as number) < 0) return null;
    if (m.t === 'hello' && typeof m.pub === 'string' && typeof m.mac === 'string') return m as unknown as Hello;
    if (
      m.t === 'secret' &&
      Number.isSafeInteger(m.g) &&
      (m.g as number) > 0 &&
      typeof m.by === 'string' &&
      typeof m.to === 'object' &&
      m.to !== null
    )
      return m as unknown as Sealed;
  } catch {
    // Not ours, or broken on the way: nothing to do with it.
  }
  return null;
}
const encode = (m: Message) => utf8(JSON.stringify(m));

interface EpochKeys {
  base: Uint8Array;
  /** PSK of the seals and key of the hellos' MACs. */
  auth: Uint8Array;
  mac: CryptoKey;
}

/**
 * One device's side of the exchange, for one call. Every input is handled after the one before (they are async);
 * each returns what to send and the media key when it changed. `identity` is this participant's media identity.
 */
export class CallSecretExchange {
  private readonly epochs = new Map<number, EpochKeys>();
  private epoch = -1;
  private pair: Promise<{ keys: CryptoKeyPair; pub: string }> | null = null;
  /** Members' hello keys, checked. */
  private readonly peers = new Map<string, { pub: CryptoKey; e: number }>();
  /** Members in the room besides this device (guests never take part). */
  private roster = new Set<string>();
  private connected = false;
  /** `by`: the device that made it (of two of one generation, the lower one's wins). */
  private secret: { g: number; bytes: Uint8Array; by: string } | null = null;
  private keyOut: MediaKey | null = null;
  private readonly pending: { from: string; m: Message }[] = [];
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly conversationId: string,
    readonly identity: string,
    private readonly random: (n: number) => Uint8Array = (n) => crypto.getRandomValues(new Uint8Array(n)),
  ) {}

  /** The generation of the secret held, 0 before any. */
  get generation(): number {
    return this.secret?.g ?? 0;
  }

  /** The group's call key of an epoch (the MLS exporter): the newest one is the one used. */
  base(epoch: number, key: Uint8Array): Promise<ExchangeStep> {
    return this.run(async (out) => {
      if (this.epochs.has(epoch)) return;
      const auth = await hkdf(key, new Uint8Array(32), concat(field(utf8(AUTH_LABEL)), u64(epoch)));
      const mac = await crypto.subtle.importKey('raw', auth.slice(), { name: 'HMAC', hash: 'SHA-256' }, false, [
        'sign',
        'verify',
      ]);
      this.epochs.set(epoch, { base: key.slice(), auth, mac });
      for (const e of [...this.epochs.keys()].sort((a, b) => a - b).slice(0, -EPOCHS_KEPT)) this.epochs.delete(e);
      if (epoch <= this.epoch) return;
      const first = this.epoch < 0;
      this.epoch = epoch;
      // Everyone hears this device's key under the new epoch: each device holding the secret answers with it.
      if (this.connected) await this.greet(out, first);
      const waiting = this.pending.splice(0);
      for (const p of waiting) await this.handle(p.from, p.m, out);
    });
  }

  /** The room connected; `others`: the identities already in it. */
  connectedTo(others: readonly string[]): Promise<ExchangeStep> {
    return this.run(async (out) => {
      this.connected = true;
      this.roster = new Set(others.filter((id) => id !== this.identity));
      if (this.epoch >= 0) await this.greet(out, true);
    });
  }

  /** This device's hello to everyone; on joining, alone in the call (guests aside), the secret is its to make. */
  private async greet(out: Outgoing[], joining: boolean): Promise<void> {
    out.push(await this.hello(null));
    if (joining && !this.secret && this.members().length === 0) await this.rotate(out);
  }

  /**
   * No secret yet some time after connecting: a hello lost on the way or met by a device an epoch apart (hello to
   * everyone again), or no one in the call has one (devices that connected together: the lead makes it).
   */
  helloAgain(): Promise<ExchangeStep> {
    return this.run(async (out) => {
      if (!this.connected || this.epoch < 0 || this.secret) return;
      if (leadsRekey(this.identity, this.members())) await this.rotate(out);
      else out.push(await this.hello(null));
    });
  }

  /** A participant joined: it hears this device's key. */
  joined(identity: string): Promise<ExchangeStep> {
    return this.run(async (out) => {
      if (identity === this.identity) return;
      this.roster.add(identity);
      if (this.connected && this.epoch >= 0 && !isGuest(identity)) out.push(await this.hello([identity]));
    });
  }

  /**
   * A participant left the call (not moved to another device of theirs): its key is forgotten, and the lead of those
   * still in makes a new secret for them. A guest too (left or removed): it held the media key, sealed to it by a
   * member's door, and the next one is sealed only to the guests still in.
   */
  left(identity: string, others: readonly string[]): Promise<ExchangeStep> {
    return this.run(async (out) => {
      this.roster = new Set(others.filter((id) => id !== this.identity));
      this.peers.delete(identity);
      if (!this.connected || this.epoch < 0) return;
      if (leadsRekey(this.identity, this.members())) await this.rotate(out);
    });
  }

  /** A message of this exchange from a participant (its media identity, as the room names it). */
  received(from: string, payload: Uint8Array): Promise<ExchangeStep> {
    return this.run(async (out) => {
      const m = parse(payload);
      if (!m || from === this.identity || isGuest(from)) return;
      await this.handle(from, m, out);
    });
  }

  private run(step: (out: Outgoing[]) => Promise<void>): Promise<ExchangeStep> {
    const next = this.queue.then(async () => {
      const out: Outgoing[] = [];
      const before = this.keyOut;
      await step(out);
      await this.refreshKey();
      return { send: out, key: this.keyOut !== before ? this.keyOut : null };
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  private members(): string[] {
    return [...this.roster].filter((id) => !isGuest(id));
  }

  private keyPair() {
    this.pair ??= (async () => {
      const s = suite();
      const keys = await s.kem.generateKeyPair();
      return { keys, pub: toB64(new Uint8Array(await s.kem.serializePublicKey(keys.publicKey))) };
    })();
    return this.pair;
  }

  private helloData(from: string, pub: string, e: number) {
    return concat(
      field(utf8(HELLO_LABEL)),
      field(utf8(this.conversationId)),
      field(utf8(from)),
      field(utf8(pub)),
      u64(e),
    );
  }

  private async hello(to: string[] | null): Promise<Outgoing> {
    const keys = this.epochs.get(this.epoch) as EpochKeys;
    const { pub } = await this.keyPair();
    const mac = new Uint8Array(
      await crypto.subtle.sign('HMAC', keys.mac, this.helloData(this.identity, pub, this.epoch).slice()),
    );
    return { payload: encode({ v: 1, t: 'hello', e: this.epoch, pub, mac: toB64(mac) }), to };
  }

  private sealInfo(from: string, to: string, e: number, g: number, by: string) {
    return concat(
      field(utf8(SEAL_LABEL)),
      field(utf8(this.conversationId)),
      field(utf8(from)),
      field(utf8(to)),
      u64(e),
      u64(g),
      field(utf8(by)),
    );
  }

  /** The current secret sealed to `recipients` (those whose keys this device checked). */
  private async seal(recipients: string[]): Promise<Outgoing | null> {
    const secret = this.secret;
    const keys = this.epochs.get(this.epoch);
    if (!secret || !keys) return null;
    const s = suite();
    const to: Record<string, string> = {};
    for (const id of recipients) {
      const peer = this.peers.get(id);
      if (!peer) continue;
      const { enc, ct } = await s.seal(
        {
          recipientPublicKey: peer.pub,
          psk: { id: utf8(SEAL_LABEL), key: keys.auth.slice() },
          info: this.sealInfo(this.identity, id, this.epoch, secret.g, secret.by),
        },
        secret.bytes.slice(),
      );
      to[id] = toB64(concat(new Uint8Array(enc), new Uint8Array(ct)));
    }
    const names = Object.keys(to);
    if (names.length === 0) return null;
    return { payload: encode({ v: 1, t: 'secret', e: this.epoch, g: secret.g, by: secret.by, to }), to: names };
  }

  /** A new secret of the next generation, made here and sealed to every member in the call whose key is known. */
  private async rotate(out: Outgoing[]): Promise<void> {
    this.secret = { g: this.generation + 1, bytes: this.random(SECRET_BYTES), by: this.identity };
    const sealed = await this.seal(this.members());
    if (sealed) out.push(sealed);
  }

  private async handle(from: string, m: Message, out: Outgoing[]): Promise<void> {
    // A device ahead of this one: kept until this one reaches its epoch. One behind, beyond what is kept: dropped
    // (it says hello again once it catches up, and is answered then).
    if (m.e > this.epoch) {
      if (this.pending.length < PENDING_MAX) this.pending.push({ from, m });
      return;
    }
    const keys = this.epochs.get(m.e);
    if (!keys) return;
    if (m.t === 'hello') await this.onHello(from, m, keys, out);
    else await this.onSecret(from, m, keys);
  }

  private async onHello(from: string, m: Hello, keys: EpochKeys, out: Outgoing[]): Promise<void> {
    let pub: CryptoKey;
    try {
      const ok = await crypto.subtle.verify(
        'HMAC',
        keys.mac,
        fromB64(m.mac).slice(),
        this.helloData(from, m.pub, m.e).slice(),
      );
      if (!ok) return;
      pub = await suite().kem.deserializePublicKey(fromB64(m.pub).slice().buffer);
    } catch {
      return;
    }
    const known = this.peers.get(from);
    if (known && known.e > m.e) return;
    this.peers.set(from, { pub, e: m.e });
    this.roster.add(from);
    if (!this.connected) return;
    // One not heard from before may have missed this device's hello (sent to it before it listened): it gets one
    // now, so this device's next secret reaches it too.
    if (!known) out.push(await this.hello([from]));
    // Answered by every device that holds the secret (a copy of one already held is ignored), so a joiner gets it
    // whoever else missed its hello. One without it makes none here: the sender may hold one already (the first one
    // in makes it alone; devices that connect together, their lead on helloAgain).
    if (!this.secret) return;
    const sealed = await this.seal([from]);
    if (sealed) out.push(sealed);
  }

  private async onSecret(from: string, m: Sealed, keys: EpochKeys): Promise<void> {
    const entry = m.to[this.identity];
    if (typeof entry !== 'string') return;
    const current = this.secret;
    if (current && (m.g < current.g || (m.g === current.g && m.by >= current.by))) return;
    const { keys: pair } = await this.keyPair();
    let bytes: Uint8Array;
    try {
      const sealed = fromB64(entry);
      bytes = new Uint8Array(
        await suite().open(
          {
            recipientKey: pair,
            enc: sealed.slice(0, 32).buffer,
            psk: { id: utf8(SEAL_LABEL), key: keys.auth.slice() },
            info: this.sealInfo(from, this.identity, m.e, m.g, m.by),
          },
          sealed.slice(32).buffer,
        ),
      );
    } catch {
      return;
    }
    if (bytes.length !== SECRET_BYTES) return;
    this.secret = { g: m.g, bytes, by: m.by };
  }

  private async refreshKey(): Promise<void> {
    const keys = this.epochs.get(this.epoch);
    if (!this.secret || !keys) return;
    const next = await mediaKey(this.conversationId, { epoch: this.epoch, key: keys.base }, this.secret);
    const same =
      this.keyOut &&
      this.keyOut.epoch === next.epoch &&
      this.keyOut.key.length === next.key.length &&
      this.keyOut.key.every((b, i) => b === next.key[i]);
    if (!same) this.keyOut = next;
  }
}
