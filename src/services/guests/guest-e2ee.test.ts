// A guest in an encrypted call (docs/secret-chats.md "Guests in encrypted calls"): the claims the design rests on,
// with the real HPKE (@hpke/core) and WebCrypto: a knock's MAC needs the link secret, a key the server puts in the
// guest's place is refused, the sealed call key opens only with the guest's private key and the link's secret, and
// both sides show the same short code, another one for another guest key.
import { describe, expect, it } from 'vitest';
import {
  fromB64,
  GuestE2eeError,
  knockMac,
  linkFragment,
  makeGuestKeys,
  openCallKey,
  sealCallKey,
  secretFromFragment,
  shortCode,
  toB64,
  verifyKnock,
} from './guest-e2ee';

const random = (n: number) => crypto.getRandomValues(new Uint8Array(n));
const code = 'AbCdEfGhIjKlMnOpQrStUvWx';
const knockId = 'k-123';

async function knocked() {
  const linkSecret = random(32);
  const guest = await makeGuestKeys();
  const mac = await knockMac(linkSecret, code, guest.publicKey);
  const callKey = { epoch: 7, key: random(32) };
  return { linkSecret, guest, mac, callKey };
}

describe('guest e2ee', () => {
  it('carries the link secret in the fragment and reads it back; a plain link has none', () => {
    const s = random(32);
    expect(secretFromFragment(linkFragment(s))).toEqual(s);
    expect(secretFromFragment('')).toBeNull();
    expect(secretFromFragment('#k=short')).toBeNull();
  });

  it('accepts a knock MACed with the link secret and refuses one made with another secret', async () => {
    const { linkSecret, guest, mac } = await knocked();
    expect(await verifyKnock(linkSecret, code, guest.publicKey, mac)).toBe(true);
    const wrong = await knockMac(random(32), code, guest.publicKey);
    expect(await verifyKnock(linkSecret, code, guest.publicKey, wrong)).toBe(false);
    // The same MAC for another link's code does not hold either.
    expect(await verifyKnock(linkSecret, 'ZZZZZZZZZZZZZZZZZZZZZZZZ', guest.publicKey, mac)).toBe(false);
  });

  it('refuses to seal to a key the server substituted for the guest’s', async () => {
    const { linkSecret, guest, mac, callKey } = await knocked();
    const server = await makeGuestKeys();
    expect(await verifyKnock(linkSecret, code, server.publicKey, mac)).toBe(false);
    await expect(
      sealCallKey({ linkSecret, code, knockId, publicKey: server.publicKey, mac, callKey }),
    ).rejects.toBeInstanceOf(GuestE2eeError);
    // Nor with a MAC the server made itself without the link secret.
    const forged = await knockMac(random(32), code, server.publicKey);
    await expect(
      sealCallKey({ linkSecret, code, knockId, publicKey: server.publicKey, mac: forged, callKey }),
    ).rejects.toBeInstanceOf(GuestE2eeError);
    // The guest's own key seals.
    expect(await sealCallKey({ linkSecret, code, knockId, publicKey: guest.publicKey, mac, callKey })).toMatch(
      /^[\w-]+$/,
    );
  });

  it('opens the sealed call key only with the guest’s private key and the right link secret', async () => {
    const { linkSecret, guest, mac, callKey } = await knocked();
    const sealed = await sealCallKey({ linkSecret, code, knockId, publicKey: guest.publicKey, mac, callKey });
    const opened = await openCallKey({ linkSecret, code, knockId, keys: guest, sealed });
    expect(opened.epoch).toBe(7);
    expect(opened.key).toEqual(callKey.key);
    // Nothing of the key is in the sealed blob in the clear.
    expect(toB64(fromB64(sealed))).not.toContain(toB64(callKey.key));

    const other = await makeGuestKeys();
    await expect(openCallKey({ linkSecret, code, knockId, keys: other, sealed })).rejects.toBeInstanceOf(
      GuestE2eeError,
    );
    await expect(openCallKey({ linkSecret: random(32), code, knockId, keys: guest, sealed })).rejects.toBeInstanceOf(
      GuestE2eeError,
    );
    // Bound to the knock: the same blob handed to another knock of the link does not open.
    await expect(openCallKey({ linkSecret, code, knockId: 'k-other', keys: guest, sealed })).rejects.toBeInstanceOf(
      GuestE2eeError,
    );
    const flipped = fromB64(sealed);
    flipped[flipped.length - 1] = (flipped[flipped.length - 1] ?? 0) ^ 1;
    await expect(
      openCallKey({ linkSecret, code, knockId, keys: guest, sealed: toB64(flipped) }),
    ).rejects.toBeInstanceOf(GuestE2eeError);
  });

  it('shows the same short code on both sides, another for another guest key or epoch', async () => {
    const { linkSecret, guest, mac, callKey } = await knocked();
    const sealed = await sealCallKey({ linkSecret, code, knockId, publicKey: guest.publicKey, mac, callKey });
    const opened = await openCallKey({ linkSecret, code, knockId, keys: guest, sealed });
    const member = await shortCode(linkSecret, guest.publicKey, callKey.epoch);
    const guestSide = await shortCode(linkSecret, guest.publicKey, opened.epoch);
    expect(member).toMatch(/^\d{3} \d{3}$/);
    expect(guestSide).toBe(member);
    const other = await makeGuestKeys();
    expect(await shortCode(linkSecret, other.publicKey, callKey.epoch)).not.toBe(member);
    expect(await shortCode(linkSecret, guest.publicKey, callKey.epoch + 1)).not.toBe(member);
  });
});
