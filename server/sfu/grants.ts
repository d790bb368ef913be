// What a verified access token allows (transport/auth.ts reads it; the session layer acts on it).
export interface Grants {
  identity: string;
  name: string;
  metadata: string;
  attributes: Record<string, string>;
  room: string;
  canPublish: boolean;
  canSubscribe: boolean;
  canPublishData: boolean;
  canUpdateMetadata: boolean;
  hidden: boolean;
  /** When the token was issued (its nbf, else iat; ms since the epoch, 0 when it says neither). */
  issuedAt: number;
}
