// What a page opened over plain http (not a secure context: window.isSecureContext is false) cannot do, as the
// machines carry it: the microphone and camera (calls, voice messages), the service worker and Web Push. The check
// is a browser capability (src/services/app/secure-context.ts); the https address is the server's PUBLIC_URL when it
// is https (GET /api/instance → secureUrl). Views render the sentence from it (src/ui/shared/InsecureNotice.tsx).

/** The page is not a secure context; `secureUrl` is the server's https address, when it knows one. */
export interface InsecurePage {
  secureUrl: string | null;
}

/** Why the microphone (and camera) could not be had. */
export type MediaProblem =
  | ({ kind: 'insecure' } & InsecurePage)
  /** Refused by the user or the browser's settings. */
  | { kind: 'denied' }
  /** No such device. */
  | { kind: 'missing' }
  /** The device is held by another program. */
  | { kind: 'busy' }
  /** No getUserMedia at all. */
  | { kind: 'unsupported' }
  | { kind: 'failed' };

/** The sentence before the address, by what the page cannot do. */
export const INSECURE_LEAD = {
  calls: 'Звонки и голосовые сообщения работают только по защищённому адресу',
  notifications: 'Уведомления работают только по защищённому адресу',
} as const;

export type InsecureTopic = keyof typeof INSECURE_LEAD;

/** When the server knows no https address: the administrator has to set one up. */
export const INSECURE_NO_ADDRESS = '(https://) — попросите администратора настроить HTTPS';

/** The whole sentence as plain text (the view makes the address a link). */
export function insecureText(topic: InsecureTopic, page: InsecurePage): string {
  return page.secureUrl
    ? `${INSECURE_LEAD[topic]} (${page.secureUrl})`
    : `${INSECURE_LEAD[topic]} ${INSECURE_NO_ADDRESS}`;
}
