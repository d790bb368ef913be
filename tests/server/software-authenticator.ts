// A passkey authenticator in software for the server's tests: an ES256 key pair from node:crypto, and the browser's
// answers built byte by byte as WebAuthn defines them (authenticator data, clientDataJSON, a CBOR attestation object
// with the format «none», an ECDSA signature over the authenticator data and the client data's hash). Each answer can
// be bent (another origin, no user verification, a counter gone back) to see the server refuse it.
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const b64url = (b: Uint8Array | Buffer) => Buffer.from(b).toString('base64url');
const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest();

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

export interface Bend {
  /** The page's origin the browser writes in the client data (default: the authenticator's). */
  origin?: string;
  /** Whether the authenticator verified the person (a PIN, a fingerprint); default yes. */
  userVerified?: boolean;
  /** The signature counter to report instead of the next one. */
  counter?: number;
  /** The challenge to echo instead of the options'. */
  challenge?: string;
}

/** Options as the server sends them: only the fields a browser reads here. */
interface CreationOptions {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
}
interface RequestOptions {
  challenge: string;
  rpId?: string;
  allowCredentials?: { id: string }[];
}

export function softwareAuthenticator(origin: string) {
  const rpId = new URL(origin).hostname;
  const credentials = new Map<string, { key: KeyObject; userHandle: string; counter: number }>();

  function authData(flags: number, counter: number, attested?: Buffer): Buffer {
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), u32(counter), ...(attested ? [attested] : [])]);
  }
  const flagsOf = (bend: Bend, attested: boolean) =>
    0x01 | (bend.userVerified === false ? 0 : 0x04) | (attested ? 0x40 : 0);
  const clientData = (type: string, challenge: string, bend: Bend) =>
    Buffer.from(JSON.stringify({ type, challenge: bend.challenge ?? challenge, origin: bend.origin ?? origin }));

  return {
    /** The credential ids this authenticator keeps. */
    ids: () => [...credentials.keys()],

    /** navigator.credentials.create(): a new key pair, answered with attestation «none». */
    create(options: CreationOptions, bend: Bend = {}) {
      const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const jwk = publicKey.export({ format: 'jwk' });
      const cose = isoCBOR.encode(
        new Map<number, number | Uint8Array>([
          [1, 2],
          [3, -7],
          [-1, 1],
          [-2, Buffer.from(jwk.x as string, 'base64url')],
          [-3, Buffer.from(jwk.y as string, 'base64url')],
        ]),
      );
      const credentialId = randomBytes(16);
      const id = b64url(credentialId);
      const attested = Buffer.concat([Buffer.alloc(16), Buffer.from([0, credentialId.length]), credentialId, cose]);
      const data = authData(flagsOf(bend, true), 0, attested);
      const attestationObject = isoCBOR.encode(
        new Map<string, string | Uint8Array | Map<string, string>>([
          ['fmt', 'none'],
          ['attStmt', new Map<string, string>()],
          ['authData', data],
        ]),
      );
      credentials.set(id, { key: privateKey, userHandle: options.user.id, counter: 0 });
      return {
        id,
        rawId: id,
        type: 'public-key' as const,
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', options.challenge, bend)),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
        clientExtensionResults: {},
      };
    },

    /** navigator.credentials.get(): signs with `id` (default: the first allowed, or the first kept). */
    get(options: RequestOptions, bend: Bend = {}, id?: string) {
      const chosen = id ?? options.allowCredentials?.[0]?.id ?? [...credentials.keys()][0];
      const credential = credentials.get(chosen);
      if (!credential) throw new Error(`no credential ${chosen}`);
      credential.counter = bend.counter ?? credential.counter + 1;
      const data = authData(flagsOf(bend, false), credential.counter);
      const client = clientData('webauthn.get', options.challenge, bend);
      const signature = sign('sha256', Buffer.concat([data, sha256(client)]), credential.key);
      return {
        id: chosen,
        rawId: chosen,
        type: 'public-key' as const,
        response: {
          clientDataJSON: b64url(client),
          authenticatorData: b64url(data),
          signature: b64url(signature),
          userHandle: credential.userHandle,
        },
        clientExtensionResults: {},
      };
    },
  };
}

export type SoftwareAuthenticator = ReturnType<typeof softwareAuthenticator>;
