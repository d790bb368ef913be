// What a person's identity key signs to vouch for one of their devices (docs/secret-chats.md "Identity keys"): the
// server checks it at registration, every member's device in each leaf. No schemas here, so the browser's crypto
// worker can import it without zod.

/** The UTF-8 text an identity key signs for a device's signature key (base64). */
export const deviceStatement = (userId: string, signatureKey: string) => `beseda device v1\n${userId}\n${signatureKey}`;
