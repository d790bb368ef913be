// The real services of the client, created once by the runtime. Machines declare what they need as actors;
// each feature's effects (src/services/<feature>/*.effects.ts) provide those actors from these services. Tests replace
// single services with `createRuntime({ effects, services: { … } })` and keep every other service real.
import { type ApiClient, createApiClient, defaultBaseUrl } from './api';
import { afterFirstPaint } from './first-paint';
import { type AuthApi, createAuthApi, measurePing } from '../session/auth-api';
import type { addPasskey, signInWithPasskey } from '../session/passkeys';
import type { PixelArea } from '../profile/avatar-image';
import type { OfflineCache } from '../session/offline-cache';
import { type DraftStore, localDraftStore, localOutboxStore, type OutboxStore } from '../composer/outbox-store';
import { localPendingSignOuts, type PendingSignOuts } from '../session/pending-sign-outs';
import { loadSession, type Session, saveSession, watchSession } from '../session/storage';
import type { SecretFileTransfer, Uploader } from '../composer/upload';
import type { ImportsApi } from '../historyImport/imports-api';
import type { SoundService } from './sound';
import { soundLater } from './sound-later';
import { memoryRouter, type RouterService } from './router';
import type { SocketConnector } from '../realtime/socket.actor';
import { requestRefresh, type SessionRef } from '../../machines/session/session/session.protocol';
import { writeFolderTab } from '../folders/folder-tab';

export interface Services {
  /** The authenticated REST client (bearer token, one refresh and one repeat after a 401). */
  api: ApiClient;
  /** Sign-in, registration, refresh, sign-out, health: calls without a bearer token. */
  authApi: AuthApi;
  /** Opens the realtime socket with an access token. */
  connectSocket: SocketConnector;
  /**
   * The id of this tab's realtime connection while it is up: read receipts name it, so the server does not
   * send the tab back what it just read (server/messages/receipt-announcer.ts).
   */
  socketId: () => string | undefined;
  /** POST /api/upload with progress. */
  upload: Uploader;
  /** A secret chat's encrypted attachments: ciphertext up with progress, and back for its members. */
  secretFiles: SecretFileTransfer;
  /** «Импорт истории»: the export up with progress, the import's status, start and cancel, a secret chat's batches. */
  imports: ImportsApi;
  /** Notification sound, ring and ringback; unlocked by the first click, key or touch. */
  sound: SoundService;
  /** Latency of one request to the product's own server, ms. */
  ping: () => Promise<number>;
  /** The browser's half of passkeys: sign in with one (or answer the second step), and add one. */
  passkeys: {
    signIn(step?: { challenge: string; remember: boolean } | null): ReturnType<typeof signInWithPasskey>;
    add(input: { password: string; name: string }): ReturnType<typeof addPasskey>;
  };
  /** The stored session (survives a reload), and what other tabs store. */
  sessionStore: {
    load(): Session | null;
    save(session: Session | null): void;
    /** Hears the session another tab stored; returns the unsubscribe. */
    watch(onChange: (session: Session | null) => void): () => void;
  };
  /** Refresh tokens of sign-outs made offline, until the server revokes them. */
  pendingSignOuts: PendingSignOuts;
  /** The chats outbox per user (unsent messages survive a reload). */
  outboxStore: OutboxStore;
  /** The composer's drafts per user (unsent text survives a reload). */
  draftStore: DraftStore;
  /** The avatar editor's image work: a chosen file as a data: URL, and the cropped square as an image file. */
  avatarImage: { read(file: Blob): Promise<string>; crop(source: string, area: PixelArea): Promise<Blob> };
  /** What the browser keeps for reading offline (IndexedDB; the code loads on first use). */
  offline: OfflineCache;
  /** The signed-in user's id, or null. */
  currentUserId: () => string | null;
  /** The app's address (main.tsx gives the browser's router; in memory otherwise). */
  router: RouterService;
}

/**
 * The offline cache, its code (and idb) fetched on first use, apart from the first bundle. Writes are for the
 * signed-in user only, checked when the write starts: an answer that arrives after its user signed out writes
 * nothing back into a store that sign-out has just cleared. Clearing (sign-out) also removes the user's outbox and drafts,
 * what secret chats keep (keys, plaintexts: src/services/secretChats/crypto/worker-client.ts), and where a secret
 * chat's history import stands (IndexedDB `beseda-history-import`: src/services/historyImport/positions.ts).
 */
function lazyOfflineCache(
  signedIn: (userId: string) => boolean,
  kept: { outboxStore: OutboxStore; draftStore: DraftStore },
): OfflineCache {
  let cache: Promise<OfflineCache> | null = null;
  const get = () => {
    cache ??= import('../session/offline-cache').then((m) => m.createOfflineCache());
    return cache;
  };
  // Writes and the deletions' bookkeeping wait for the chat list's first paint (first-paint.ts); reading what is
  // kept, the list's stand-in when the network fails, does not.
  const later = () => afterFirstPaint(get);
  return {
    saveList: (...a) => later().then((c) => (signedIn(a[0]) ? c.saveList(...a) : undefined)),
    loadList: (...a) => get().then((c) => c.loadList(...a)),
    saveMessages: (...a) => later().then((c) => (signedIn(a[0]) ? c.saveMessages(...a) : undefined)),
    loadMessages: (...a) => get().then((c) => c.loadMessages(...a)),
    forgetMessage: (...a) => {
      // A secret chat's message leaves this device's local search index too (a no-op unless its worker runs).
      void import('../secretChats/crypto/worker-client')
        .then((m) => m.forgetSecretMessage(a[0], a[2]))
        .catch(() => undefined);
      return get().then((c) => c.forgetMessage(...a));
    },
    deletionsCheckedAt: (...a) => later().then((c) => c.deletionsCheckedAt(...a)),
    setDeletionsCheckedAt: (...a) => later().then((c) => (signedIn(a[0]) ? c.setDeletionsCheckedAt(...a) : undefined)),
    clear: async (userId) => {
      kept.outboxStore.clear(userId);
      kept.draftStore.clear(userId);
      // The folder tab names one of the user's folders: the next person at this browser starts at «Все чаты».
      writeFolderTab(null);
      // Secret chats' keys and kept plaintexts go too, and their worker stops (its code loads only for this).
      const secrets = import('../secretChats/crypto/worker-client').then((m) => m.clearSecrets(userId));
      const positions = import('../historyImport/positions').then((m) => m.clearImportPositions(userId));
      await Promise.all([get().then((c) => c.clear(userId)), secrets, positions]);
    },
  };
}

/** A service replaced whole, or (for an object of functions) some of its functions replaced. */
export type ServiceOverrides = {
  [K in keyof Services]?: Services[K] extends (...args: never[]) => unknown ? Services[K] : Partial<Services[K]>;
};

/** Before a failed load of the socket chunk is tried again (offline at start, or a redeploy replaced it). */
export const SOCKET_CHUNK_RETRY_MS = 3_000;

/**
 * socket.io-client loads on demand, not with the chats page's first bundle (bench/client/bundle.ts): the page is drawn from
 * REST answers and the socket is fetched after them, with the first connection (at start when a session is stored;
 * on a load of the chat list once the list has painted, src/services/app/first-paint.ts). The realtime machine
 * waits in 'connecting' until the chunk is here.
 */
function loadSocketModule(): Promise<typeof import('../realtime/socket')> {
  return afterFirstPaint(() => import('../realtime/socket')).catch(() =>
    new Promise<void>((resolve) => setTimeout(resolve, SOCKET_CHUNK_RETRY_MS)).then(loadSocketModule),
  );
}

export function createServices(options: { baseURL?: string; session: () => SessionRef | null }): Services {
  const baseURL = options.baseURL ?? defaultBaseUrl();
  const current = () => options.session()?.getSnapshot().context.session ?? null;
  const refresh = async () => {
    const session = options.session();
    return session ? requestRefresh(session) : null;
  };
  const api = createApiClient({
    baseURL,
    auth: {
      accessToken: () => current()?.accessToken ?? null,
      refreshToken: () => current()?.refreshToken ?? null,
      refresh,
    },
  });
  const authApi = createAuthApi(createApiClient({ baseURL }));
  let socket: Awaited<ReturnType<SocketConnector>> | null = null;
  return {
    api,
    authApi,
    connectSocket: (token) =>
      loadSocketModule().then((m) => {
        socket = m.createSocket(token);
        return socket;
      }),
    socketId: () => (socket?.connected ? socket.id : undefined),
    // The uploader and the avatar's image work load with their first use (the chats page's first bundle has a
    // budget; bench/client/bundle.ts).
    upload: (() => {
      let made: Promise<Uploader> | null = null;
      const uploader = () =>
        (made ??= import('../composer/upload').then(
          (m) => m.createUploader({ baseURL, accessToken: () => current()?.accessToken ?? null, refresh }),
          (err: unknown) => {
            made = null; // a failed chunk load is tried again with the next upload
            throw err;
          },
        ));
      return (file, options) => uploader().then((u) => u(file, options));
    })(),
    secretFiles: (() => {
      let made: Promise<SecretFileTransfer> | null = null;
      const transfer = () =>
        (made ??= import('../composer/upload').then(
          (m) => m.createSecretFileTransfer({ baseURL, accessToken: () => current()?.accessToken ?? null, refresh }),
          (err: unknown) => {
            made = null;
            throw err;
          },
        ));
      return {
        upload: (ciphertext, conversationId, options) =>
          transfer().then((t) => t.upload(ciphertext, conversationId, options)),
        download: (path, signal) => transfer().then((t) => t.download(path, signal)),
      };
    })(),
    imports: (() => {
      let made: Promise<ImportsApi> | null = null;
      const api = () =>
        (made ??= import('../historyImport/imports-api').then(
          (m) => m.createImportsApi({ baseURL, accessToken: () => current()?.accessToken ?? null, refresh }),
          (err: unknown) => {
            made = null;
            throw err;
          },
        ));
      return {
        upload: (file, conversationId, options) => api().then((a) => a.upload(file, conversationId, options)),
        list: () => api().then((a) => a.list()),
        get: (id) => api().then((a) => a.get(id)),
        chooseChat: (id, chatId) => api().then((a) => a.chooseChat(id, chatId)),
        start: (id, body) => api().then((a) => a.start(id, body)),
        cancel: (id) => api().then((a) => a.cancel(id)),
        secretBatch: (batch) => api().then((a) => a.secretBatch(batch)),
      };
    })(),
    sound: soundLater(() => afterFirstPaint(() => import('./sound')).then((m) => m.createSoundService())),
    ping: () => measurePing(authApi),
    // Loaded on first use: only the sign-in page's button and «Безопасность» need it, never the chat list.
    passkeys: {
      signIn: (step = null) => import('../session/passkeys').then((m) => m.signInWithPasskey(authApi, step)),
      add: (input) =>
        import('../session/passkeys').then((m) =>
          m.addPasskey(
            {
              registerOptions: (body) => api.call('passkeyRegisterOptions', { body }),
              register: (body) => api.call('passkeyRegister', { body }),
            },
            input,
          ),
        ),
    },
    sessionStore: { load: loadSession, save: saveSession, watch: watchSession },
    pendingSignOuts: localPendingSignOuts,
    outboxStore: localOutboxStore,
    draftStore: localDraftStore,
    avatarImage: {
      read: (file) => import('../profile/avatar-image').then((m) => m.readAsDataUrl(file)),
      crop: (source, area: PixelArea) => import('../profile/avatar-image').then((m) => m.cropToBlob(source, area)),
    },
    offline: lazyOfflineCache((userId) => current()?.user.id === userId, {
      outboxStore: localOutboxStore,
      draftStore: localDraftStore,
    }),
    currentUserId: () => current()?.user.id ?? null,
    router: memoryRouter(),
  };
}

export function withOverrides(real: Services, overrides: ServiceOverrides = {}): Services {
  const out: Record<string, unknown> = { ...real };
  for (const [key, value] of Object.entries(overrides)) {
    const base = out[key];
    const mergeable = value && typeof value === 'object' && base && typeof base === 'object';
    out[key] = mergeable ? { ...(base as object), ...(value as object) } : value;
  }
  return out as unknown as Services;
}
