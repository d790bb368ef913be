// The call secret of a secret chat's call (call-secret.ts, docs/secret-chats.md "Who holds the call's key"): real
// HPKE and WebCrypto, several devices on a relay that delivers what each sends and keeps a copy of everything, as the
// media server would; the one who left the call is fed that copy too.
import { describe, expect, it } from 'vitest';
import { CallSecretExchange, type ExchangeStep, type MediaKey, mediaKey } from './call-secret';

const bytes = (n: number, fill?: number) =>
  fill === undefined ? crypto.getRandomValues(new Uint8Array(n)) : new Uint8Array(n).fill(fill);
const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
/** What kind of message each one sent is ('hello' or 'secret'). */
const kinds = (step: ExchangeStep) =>
  step.send.map((m) => (JSON.parse(new TextDecoder().decode(m.payload)) as { t: string }).t);
/** The sealed secret among what a step sends. */
const sealedOf = (step: ExchangeStep) => step.send[kinds(step).indexOf('secret')];

/** A room: devices by identity, each one's media key, and every message that crossed the relay. */
class Relay {
  readonly devices = new Map<string, CallSecretExchange>();
  readonly keys = new Map<string, MediaKey>();
  readonly wire: { from: string; payload: Uint8Array; to: string[] | null }[] = [];
  /** The group's call key per epoch (the MLS exporter every member derives). */
  readonly bases = new Map<number, Uint8Array>();
  epoch = 1;

  constructor(readonly conversationId = 'conv-1') {
    this.bases.set(1, bytes(32));
  }

  async take(id: string, step: Promise<ExchangeStep>): Promise<void> {
    const s = await step;
    if (s.key) this.keys.set(id, s.key);
    for (const m of s.send) {
      this.wire.push({ from: id, payload: m.payload, to: m.to });
      const targets = (m.to ?? [...this.devices.keys()]).filter((t) => t !== id && this.devices.has(t));
      for (const t of targets) await this.take(t, (this.devices.get(t) as CallSecretExchange).received(id, m.payload));
    }
  }

  /** A device joins: it has the group's key, then connects; the others hear it joined. */
  async join(id: string): Promise<CallSecretExchange> {
    const x = new CallSecretExchange(this.conversationId, id);
    const others = [...this.devices.keys()];
    this.devices.set(id, x);
    await this.take(id, x.base(this.epoch, this.bases.get(this.epoch) as Uint8Array));
    for (const o of others) await this.take(o, (this.devices.get(o) as CallSecretExchange).joined(id));
    await this.take(id, x.connectedTo(others));
    return x;
  }

  async leave(id: string): Promise<void> {
    this.devices.delete(id);
    this.keys.delete(id);
    const others = [...this.devices.keys()];
    for (const [o, x] of this.devices)
      await this.take(
        o,
        x.left(
          id,
          others.filter((n) => n !== o),
        ),
      );
  }

  /** A commit: a new epoch, whose group key every device derives (in the order given). */
  async newEpoch(order = [...this.devices.keys()]): Promise<void> {
    this.epoch++;
    this.bases.set(this.epoch, bytes(32));
    for (const id of order)
      await this.take(id, (this.devices.get(id) as CallSecretExchange).base(this.epoch, this.bases.get(this.epoch)!));
  }

  keyOf(id: string) {
    const k = this.keys.get(id);
    return k ? `${k.epoch}:${hex(k.key)}` : null;
  }
}

describe('the call secret', () => {
  it('is made by the first device alone, and reaches each one who joins: all hold one media key', async () => {
    const r = new Relay();
    const a = await r.join('alice');
    expect(a.generation).toBe(1);
    expect(r.keyOf('alice')).not.toBeNull();
    await r.join('bob');
    await r.join('carol');
    expect(r.keyOf('bob')).toBe(r.keyOf('alice'));
    expect(r.keyOf('carol')).toBe(r.keyOf('alice'));
    // The media key is neither the group's call key nor anything on the wire.
    const key = r.keys.get('alice') as MediaKey;
    expect(key.epoch).toBe(1 + 1);
    expect(hex(key.key)).not.toBe(hex(r.bases.get(1)!));
    for (const m of r.wire) expect(Buffer.from(m.payload).includes(Buffer.from(key.key))).toBe(false);
  });

  it('is made anew when a member leaves: those still in move to a key the one who left never gets, whatever it reads', async () => {
    const r = new Relay();
    await r.join('alice');
    const bob = await r.join('bob');
    await r.join('carol');
    const before = r.keyOf('bob');
    const seenBefore = r.wire.length;
    await r.leave('bob');
    expect(r.keyOf('alice')).toBe(r.keyOf('carol'));
    expect(r.keyOf('alice')).not.toBe(before);
    expect(r.devices.get('alice')?.generation).toBe(2);
    // Bob's device reads everything the relay carried since (the server's copy), under any sender's name.
    let bobKey: MediaKey | null = null;
    for (const m of r.wire.slice(seenBefore))
      for (const from of ['alice', 'carol']) {
        const step = await bob.received(from, m.payload);
        bobKey = step.key ?? bobKey;
      }
    expect(bobKey).toBeNull();
    expect(bob.generation).toBe(1);
    // Nor does putting another's sealed copy under its own name open it (the recipient is in what is sealed).
    for (const m of r.wire.slice(seenBefore)) {
      const msg = JSON.parse(new TextDecoder().decode(m.payload)) as { t: string; to?: Record<string, string> };
      if (msg.t !== 'secret' || !msg.to) continue;
      const forged = { ...msg, to: { bob: Object.values(msg.to)[0] } };
      const step = await bob.received(m.from, new TextEncoder().encode(JSON.stringify(forged)));
      expect(step.key).toBeNull();
    }
    expect(bob.generation).toBe(1);
  });

  it('gives a late joiner only the secret of now: what was said before it came stays closed to it', async () => {
    const r = new Relay();
    await r.join('alice');
    await r.join('bob');
    await r.leave('bob');
    const oldWire = r.wire.length;
    const dan = await r.join('dan');
    expect(r.keyOf('dan')).toBe(r.keyOf('alice'));
    expect(dan.generation).toBe(2);
    // Generation 1's copies (sealed to bob) do not open for dan, and an older generation is never taken back.
    for (const m of r.wire.slice(0, oldWire)) expect((await dan.received(m.from, m.payload)).key).toBeNull();
    expect(dan.generation).toBe(2);
  });

  it('the lead is the lowest identity: when it leaves, the next lowest makes the new secret', async () => {
    const r = new Relay();
    await r.join('bob');
    await r.join('alice');
    await r.join('carol');
    const made = r.wire.length;
    await r.leave('alice');
    const secrets = r.wire
      .slice(made)
      .filter((m) => (JSON.parse(new TextDecoder().decode(m.payload)) as { t: string }).t === 'secret');
    expect(secrets.map((m) => m.from)).toEqual(['bob']);
    expect(r.keyOf('bob')).toBe(r.keyOf('carol'));
  });

  it('refuses a hello whose key a relay put in a member’s place: nothing is sealed to that key', async () => {
    const r = new Relay();
    const a = await r.join('alice');
    // The relay's own hello for "mallory", with a key of its own and a MAC it cannot make.
    const fake = {
      v: 1,
      t: 'hello',
      e: 1,
      pub: Buffer.from(bytes(32)).toString('base64url'),
      mac: Buffer.from(bytes(32)).toString('base64url'),
    };
    await a.joined('mallory');
    const step = await a.received('mallory', new TextEncoder().encode(JSON.stringify(fake)));
    expect(step.send).toEqual([]);
    // A real hello replayed under another name does not hold either (the sender's identity is in its MAC).
    const bobsHello = new CallSecretExchange('conv-1', 'bob');
    const hello = (await bobsHello.base(1, r.bases.get(1)!)).send;
    const greeting = (await bobsHello.connectedTo(['alice'])).send[0]!;
    expect(hello).toEqual([]);
    expect((await a.received('mallory', greeting.payload)).send).toEqual([]);
    // Bob's own: alice had not heard from him, so she says hello back, and seals him the secret.
    expect(kinds(await a.received('bob', greeting.payload))).toEqual(['hello', 'secret']);
  });

  it('two devices that both made a first secret settle on the lower identity’s', async () => {
    const r = new Relay();
    // Both connect alone (neither saw the other yet) and each makes generation 1.
    const a = new CallSecretExchange('conv-1', 'alice');
    const b = new CallSecretExchange('conv-1', 'bob');
    for (const [id, x] of [
      ['bob', b],
      ['alice', a],
    ] as const) {
      await x.base(1, r.bases.get(1)!);
      const alone = await x.connectedTo([]);
      if (alone.key) r.keys.set(id, alone.key);
    }
    expect(r.keyOf('alice')).not.toBe(r.keyOf('bob'));
    r.devices.set('alice', a);
    r.devices.set('bob', b);
    await r.take('alice', a.joined('bob'));
    await r.take('bob', b.joined('alice'));
    expect(r.keyOf('alice')).toBe(r.keyOf('bob'));
    expect(a.generation).toBe(1);
  });

  it('moves to the new epoch’s key with the group; a device a commit ahead is answered once the other catches up', async () => {
    const r = new Relay();
    await r.join('alice');
    await r.join('bob');
    const g1 = r.keyOf('alice');
    await r.newEpoch(['bob', 'alice']);
    expect(r.keyOf('alice')).toBe(r.keyOf('bob'));
    expect(r.keyOf('alice')).not.toBe(g1);
    expect(r.keys.get('alice')?.epoch).toBe(2 + 1);
    // Carol joins from an epoch ahead of the call: her hello waits at alice until alice reaches it.
    r.epoch = 3;
    r.bases.set(3, bytes(32));
    const carol = await r.join('carol');
    expect(carol.generation).toBe(0);
    await r.take('bob', r.devices.get('bob')!.base(3, r.bases.get(3)!));
    await r.take('alice', r.devices.get('alice')!.base(3, r.bases.get(3)!));
    expect(r.keyOf('carol')).toBe(r.keyOf('alice'));
    expect(r.keyOf('bob')).toBe(r.keyOf('alice'));
  });

  it('a media key is another for another epoch, generation or chat', async () => {
    const base = { epoch: 4, key: bytes(32, 7) };
    const secret = { g: 2, bytes: bytes(32, 9) };
    const k = await mediaKey('c', base, secret);
    expect(k.epoch).toBe(6);
    const others = await Promise.all([
      mediaKey('c', { ...base, epoch: 5 }, secret),
      mediaKey('c', base, { ...secret, g: 3 }),
      mediaKey('d', base, secret),
      mediaKey('c', base, { ...secret, bytes: bytes(32, 8) }),
    ]);
    for (const o of others) expect(hex(o.key)).not.toBe(hex(k.key));
  });

  it('devices that connected together, none alone: the lead makes the secret when it says hello again', async () => {
    const r = new Relay();
    const a = new CallSecretExchange('conv-1', 'alice');
    const b = new CallSecretExchange('conv-1', 'bob');
    r.devices.set('alice', a);
    r.devices.set('bob', b);
    await r.take('alice', a.base(1, r.bases.get(1)!));
    await r.take('bob', b.base(1, r.bases.get(1)!));
    await r.take('alice', a.connectedTo(['bob']));
    await r.take('bob', b.connectedTo(['alice']));
    // Each saw the other: neither made one, and a hello makes none.
    expect([a.generation, b.generation]).toEqual([0, 0]);
    await r.take('bob', b.helloAgain());
    expect([a.generation, b.generation]).toEqual([0, 0]);
    await r.take('alice', a.helloAgain());
    expect([a.generation, b.generation]).toEqual([1, 1]);
    expect(r.keyOf('bob')).toBe(r.keyOf('alice'));
  });

  it('a secret passed on by another keeps its maker: of one generation the lower maker’s wins, whoever sealed it', async () => {
    const base = crypto.getRandomValues(new Uint8Array(32));
    const make = async (id: string) => {
      const x = new CallSecretExchange('conv-1', id);
      await x.base(1, base);
      return x;
    };
    const keyOf = (step: ExchangeStep) => (step.key ? hex(step.key.key) : null);
    // Alice makes the secret alone and seals it to carol, who said hello.
    const alice = await make('alice');
    const aliceKey = keyOf(await alice.connectedTo([]));
    const carol = await make('carol');
    const [carolHello] = (await carol.connectedTo(['alice'])).send;
    const toCarol = sealedOf(await alice.received('carol', carolHello!.payload));
    expect(keyOf(await carol.received('alice', toCarol!.payload))).toBe(aliceKey);
    // Bob, alone in his view, made his own of the same generation.
    const bob = await make('bob');
    const bobAlone = await bob.connectedTo([]);
    expect(bob.generation).toBe(1);
    // Alice drops out of carol's view (carol, above bob, makes no new one); carol answers bob's hello with alice's.
    await carol.left('alice', ['bob']);
    const bobHello = bobAlone.send.find((m) => m.to === null)!;
    const toBob = sealedOf(await carol.received('bob', bobHello.payload));
    // Sent by carol (above bob), made by alice (below him): bob takes it.
    expect(keyOf(await bob.received('carol', toBob!.payload))).toBe(aliceKey);
  });

  it('a joiner gets the secret from whoever holds it, and hellos sent before it listened are said again', async () => {
    const r = new Relay();
    // Zed is alone in the call and makes the secret. Amy and Bob join; zed's hellos to them are lost (they are not
    // listening yet: not on the relay).
    const zed = await r.join('zed');
    const amy = new CallSecretExchange('conv-1', 'amy');
    const bob = new CallSecretExchange('conv-1', 'bob');
    for (const x of [amy, bob]) {
      await x.base(1, r.bases.get(1)!);
      await zed.joined(x.identity);
    }
    // Bob connects first. Amy, below zed, is in the call without a secret: zed answers bob all the same.
    r.devices.set('bob', bob);
    await r.take('bob', bob.connectedTo(['zed', 'amy']));
    expect(r.keyOf('bob')).toBe(r.keyOf('zed'));
    // Amy connects: both holders answer her; bob, who had not heard from her, says hello back.
    r.devices.set('amy', amy);
    await r.take('amy', amy.connectedTo(['zed', 'bob']));
    expect(r.keyOf('amy')).toBe(r.keyOf('zed'));
    // Zed leaves: amy leads, and her new secret reaches bob, whose first hello she never got.
    await r.leave('zed');
    expect(amy.generation).toBe(2);
    expect(bob.generation).toBe(2);
    expect(r.keyOf('bob')).toBe(r.keyOf('amy'));
  });

  it('a hello lost on the way is said again, and answered then', async () => {
    const r = new Relay();
    await r.join('alice');
    // Bob's first hello never reaches alice (the relay drops it).
    const bob = new CallSecretExchange('conv-1', 'bob');
    await bob.base(1, r.bases.get(1)!);
    await r.take('alice', r.devices.get('alice')!.joined('bob'));
    const lost = await bob.connectedTo(['alice']);
    expect(lost.send).toHaveLength(1);
    r.devices.set('bob', bob);
    expect(bob.generation).toBe(0);
    await r.take('bob', bob.helloAgain());
    expect(r.keyOf('bob')).toBe(r.keyOf('alice'));
    // With the secret held, nothing more is said.
    expect((await bob.helloAgain()).send).toEqual([]);
  });

  it('drops what is not a message of the exchange, and a guest’s participant takes no part', async () => {
    const r = new Relay();
    const a = await r.join('alice');
    for (const junk of ['', 'null', '[]', '{"v":1,"t":"secret","e":1,"g":0,"to":{}}', '{"v":2}', '\u0000'])
      expect(await a.received('bob', new TextEncoder().encode(junk))).toEqual({ send: [], key: null });
    expect((await a.joined('guest:k1')).send).toEqual([]);
    // A guest's hello is not heard: a guest never gets the secret, only a media key a member's door seals to it.
    expect(
      (await a.received('guest:k1', new TextEncoder().encode('{"v":1,"t":"hello","e":1,"pub":"x","mac":"y"}'))).send,
    ).toEqual([]);
    expect(a.generation).toBe(1);
  });

  it('is made anew when a guest leaves or is removed: the guest held the media key, and the next one is never on the wire', async () => {
    const r = new Relay();
    await r.join('alice');
    await r.join('bob');
    for (const id of r.devices.keys()) await r.take(id, (r.devices.get(id) as CallSecretExchange).joined('guest:k1'));
    const guestHeld = r.keys.get('alice') as MediaKey;
    const seenBefore = r.wire.length;
    for (const [id, x] of r.devices)
      await r.take(
        id,
        x.left(
          'guest:k1',
          [...r.devices.keys()].filter((n) => n !== id),
        ),
      );
    expect(r.devices.get('alice')?.generation).toBe(2);
    expect(r.keyOf('bob')).toBe(r.keyOf('alice'));
    const next = r.keys.get('alice') as MediaKey;
    expect(next.epoch).toBeGreaterThan(guestHeld.epoch);
    expect(hex(next.key)).not.toBe(hex(guestHeld.key));
    // One new secret, made by the lead alone, sealed to the member still in; nothing on the wire carries the key.
    expect(r.wire.slice(seenBefore)).toHaveLength(1);
    expect(r.wire.slice(seenBefore)[0]?.from).toBe('alice');
    for (const m of r.wire) expect(Buffer.from(m.payload).includes(Buffer.from(next.key))).toBe(false);
  });
});
