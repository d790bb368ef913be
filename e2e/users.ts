// Users for browser tests, made through the real REST API (fast: no form filling), and contexts signed in by
// putting the session where the client keeps it (localStorage 'beseda.session', docs/behaviour.md §3). The specs
// reach these through the fixtures in e2e/fixtures.ts.
import { randomBytes } from 'node:crypto';
import type { BrowserContext, Page, WebSocket } from '@playwright/test';

export const PASSWORD = 'correct horse battery';
export const SESSION_KEY = 'beseda.session';

export interface E2EUser {
  username: string;
  password: string;
  displayName: string;
  accessToken: string;
  refreshToken: string;
  user: { id: string; eblid: string; username: string; displayName: string; [k: string]: unknown };
}

/** JSON request to the server; throws with the status and the server's message on anything but 2xx. */
export async function apiCall<T = any>(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  token?: string,
): Promise<T> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(base + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const parsed = text ? JSON.parse(text) : null;
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
  return parsed as T;
}

let counter = 0;
/** Usernames allow letters, digits, '.', '-', '_' and at most 32 characters. */
const uniqueName = (prefix: string) =>
  `${prefix.replace(/[^\p{L}\p{N}_.-]/gu, '').slice(0, 12)}${Date.now().toString(36)}${(counter++).toString(36)}${randomBytes(2).toString('hex')}`;

/** Registers and signs in a fresh user (POST /api/auth/register, then /api/auth/login). */
export async function createUser(base: string, displayName = 'Тестовый пользователь', prefix = 'u'): Promise<E2EUser> {
  const username = uniqueName(prefix);
  await apiCall(base, 'POST', '/api/auth/register', { username, displayName, password: PASSWORD });
  const login = await apiCall<Omit<E2EUser, 'username' | 'password' | 'displayName'>>(base, 'POST', '/api/auth/login', {
    username,
    password: PASSWORD,
  });
  return { username, password: PASSWORD, displayName, ...login };
}

/** Makes the context start every page signed in as `u` (the session is written before the app script runs). */
export async function signInContext(context: BrowserContext, u: E2EUser): Promise<void> {
  const session = JSON.stringify({ user: u.user, accessToken: u.accessToken, refreshToken: u.refreshToken });
  // Only when nothing is stored yet: a reload must keep the session the app itself refreshed (rotated tokens).
  await context.addInitScript(
    ([key, value]) => {
      if (!localStorage.getItem(key)) localStorage.setItem(key, value);
    },
    [SESSION_KEY, session] as const,
  );
}

/** a sends a friend request to b by EBLID and b accepts it. */
export async function makeFriends(base: string, a: E2EUser, b: E2EUser): Promise<void> {
  const add = await apiCall<{ contact: { id: string; status: string } }>(
    base,
    'POST',
    '/api/contacts/add',
    { identifier: b.user.eblid },
    a.accessToken,
  );
  if (add.contact.status === 'ACCEPTED') return; // b had already asked a: adding accepted it
  const incoming = await apiCall<{ contacts: { id: string; friend: { id: string } }[] }>(
    base,
    'GET',
    '/api/contacts?filter=incoming',
    undefined,
    b.accessToken,
  );
  const request = incoming.contacts.find((c) => c.friend.id === a.user.id);
  if (!request) throw new Error(`no incoming request from ${a.username} for ${b.username}`);
  await apiCall(base, 'POST', '/api/contacts/respond', { contactId: request.id, action: 'accept' }, b.accessToken);
}

/** The one direct conversation of a and b (they must be friends); returns its id. */
export async function directConversation(base: string, a: E2EUser, b: E2EUser): Promise<string> {
  const res = await apiCall<{ conversation: { id: string } }>(
    base,
    'POST',
    '/api/conversations/with',
    { userId: b.user.id },
    a.accessToken,
  );
  return res.conversation.id;
}

/** A group `owner` makes with `members` (the owner's friends); returns its id. */
export async function createGroup(base: string, owner: E2EUser, members: E2EUser[], title: string): Promise<string> {
  const { conversation } = await apiCall<{ conversation: { id: string } }>(
    base,
    'POST',
    '/api/conversations',
    { participantIds: members.map((m) => m.user.id), title, isGroup: true },
    owner.accessToken,
  );
  return conversation.id;
}

/** Two fresh friends with their direct conversation: the usual start of a chats scenario. */
export async function friendsWithConversation(
  base: string,
  names: [string, string] = ['Анна', 'Борис'],
): Promise<{ a: E2EUser; b: E2EUser; conversationId: string }> {
  const [a, b] = await Promise.all([createUser(base, names[0], 'a'), createUser(base, names[1], 'b')]);
  await makeFriends(base, a, b);
  const conversationId = await directConversation(base, a, b);
  return { a, b, conversationId };
}

/** Sends a text message through the API (for seeding histories; the UI path is what tests check). */
export async function sendText(
  base: string,
  u: E2EUser,
  conversationId: string,
  content: string,
): Promise<{ id: string }> {
  const res = await apiCall<{ message: { id: string } }>(
    base,
    'POST',
    '/api/conversations/send',
    { conversationId, type: 'TEXT', content },
    u.accessToken,
  );
  return res.message;
}

/** Uploads one file (POST /api/upload, multipart field `file`); returns the server's `{ url, attachment }`. */
export async function uploadFile(
  base: string,
  u: E2EUser,
  bytes: Buffer,
  name: string,
  mime: string,
): Promise<{ url: string; attachment: { url: string; type: 'IMAGE' | 'FILE'; name: string | null } }> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)], { type: mime }), name);
  const res = await fetch(`${base}/api/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${u.accessToken}` },
    body: form,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`POST /api/upload → ${res.status} ${text}`);
  return JSON.parse(text);
}

/** Uploads the images and sends them as one IMAGE message (through the API). */
export async function sendImages(
  base: string,
  u: E2EUser,
  conversationId: string,
  images: { bytes: Buffer; name: string; mime?: string }[],
): Promise<{ id: string }> {
  const uploaded = [];
  for (const img of images) uploaded.push(await uploadFile(base, u, img.bytes, img.name, img.mime ?? 'image/png'));
  const res = await apiCall<{ message: { id: string } }>(
    base,
    'POST',
    '/api/conversations/send',
    { conversationId, type: 'IMAGE', content: '', attachments: uploaded.map((x) => ({ url: x.url, type: 'IMAGE' })) },
    u.accessToken,
  );
  return res.message;
}

/**
 * Marks the conversation read for `u` (POST /api/messages/mark-conversation-read): a conversation with unread messages
 * opens at «Непрочитанные сообщения», one without at the newest message.
 */
export async function markRead(base: string, u: E2EUser, conversationId: string): Promise<void> {
  await apiCall(base, 'POST', '/api/messages/mark-conversation-read', { conversationId }, u.accessToken);
}

/** Socket.io frames the page receives, as text (to see a server event arrive live). */
export function socketFrames(page: Page): string[] {
  const frames: string[] = [];
  page.on('websocket', (ws: WebSocket) => {
    if (!ws.url().includes('/socket.io/')) return;
    ws.on('framereceived', (f) => {
      if (typeof f.payload === 'string') frames.push(f.payload);
    });
  });
  return frames;
}
