// The composer feature's effects provided from the real services: the recorder's recording, the outbox's store,
// uploads and sends (a secret chat's as its item says, to the device the outbox hands over), the drafts' store.
import { fromCallback, fromPromise } from 'xstate';
import { RequestFailure } from '../../contract/failure';
import { insecurePage, secureContext } from '../app/secure-context';
import { type ComposerEffects, composerMachine } from '../../machines/composer/composer/composer.machine';
import {
  type DraftMap,
  type DraftsEffects,
  draftsMachine,
  parseDrafts,
} from '../../machines/composer/drafts/drafts.machine';
import {
  type OutboxEffects,
  outboxMachine,
  type OutboxStoreCommand,
  type SendInput,
  type UploadInput,
  type UploadReport,
} from '../../machines/composer/outbox/outbox.machine';
import {
  type OutboxItem,
  parseStoredOutbox,
  UPLOAD_FAILED,
  uploadFailure,
} from '../../machines/composer/outbox/outbox-item';
import {
  MIC_FAILED,
  type RecorderEffects,
  recorderMachine,
  type RecordingCommand,
  type RecordingReport,
} from '../../machines/composer/recorder/recorder.machine';
import type { Services } from '../app/services';

/**
 * The recorder's recording actor: the recording service is fetched on demand, the first time it records. A page that
 * is not a secure context asks for no microphone: it reports where the https address is (GET /api/instance).
 */
export const recordVoiceActor = (api: Services['api']) =>
  fromCallback<RecordingCommand>(({ sendBack, receive }) => {
    const report = (r: RecordingReport) => sendBack(r);
    let handle: { stop(): void; dispose(): void } | null = null;
    let stopped = false;
    let disposed = false;
    if (!secureContext()) {
      void insecurePage(api).then((page) => {
        if (!disposed) report({ type: 'recording.insecure', secureUrl: page?.secureUrl ?? null });
      });
      return () => {
        disposed = true;
      };
    }
    import('./voice-recorder').then(
      ({ recordVoice }) => {
        if (disposed) return;
        handle = recordVoice({
          started: () => report({ type: 'recording.started' }),
          level: (level, elapsedMs) => report({ type: 'recording.level', level, elapsedMs }),
          done: (r) => report({ type: 'recording.done', recording: { ...r, at: new Date().toISOString() } }),
          failed: (message) => report({ type: 'recording.failed', message }),
        });
        if (stopped) handle.stop();
      },
      () => report({ type: 'recording.failed', message: MIC_FAILED }),
    );
    receive(() => {
      stopped = true;
      handle?.stop();
    });
    return () => {
      disposed = true;
      handle?.dispose();
    };
  });

/** The outbox's effects: its store per user (localStorage), uploads with progress, sends over the API. */
export function wireOutbox(s: Services) {
  return outboxMachine.provide({
    actors: {
      loadOutbox: fromPromise(async ({ input }: { input: { userId: string } }) =>
        parseStoredOutbox(s.outboxStore.load(input.userId)),
      ),
      // The server's largest upload, asked once (no sign-in needed): a larger file is refused before it goes.
      loadUploadLimit: fromPromise(async () => (await s.api.call('instance')).uploadLimitBytes),
      outboxStore: fromCallback<OutboxStoreCommand, { userId: string }>(({ input, receive }) => {
        receive((command: OutboxStoreCommand) =>
          s.outboxStore.save(input.userId, command.items satisfies OutboxItem[]),
        );
      }),
      upload: fromCallback<{ type: string }, UploadInput>(({ input, sendBack }) => {
        const report = (r: UploadReport) => sendBack(r);
        const abort = new AbortController();
        const progress = (percent: number) => {
          if (!abort.signal.aborted) report({ type: 'upload.progress', percent });
        };
        // No bytes (an item restored after a reload fails before it gets here): nothing can be uploaded.
        // A secret chat's file is sealed in the browser and goes up as ciphertext (its code loads with secret chats).
        const { file, conversationId, secret } = input;
        const options = { signal: abort.signal, onProgress: progress };
        const uploading = !file
          ? Promise.reject(new Error(UPLOAD_FAILED))
          : conversationId && secret
            ? import('../secretChats/secret-files').then((m) =>
                m.uploadSecretFile(s.secretFiles, conversationId, file, options).then((attachment) => ({ attachment })),
              )
            : s.upload(file, options);
        uploading.then(
          (result) => {
            if (!abort.signal.aborted) report({ type: 'upload.done', attachment: result.attachment });
          },
          // With the server's reason; a file it refused itself (413 and other 4xx) fails for good.
          (error: unknown) => {
            if (!abort.signal.aborted) report(uploadFailure(error));
          },
        );
        return () => abort.abort();
      }),
      // No message (its item is gone): a failure without an answer, like any send that did not reach the server.
      // A secret chat's text goes through the secret chat device the outbox gives (its code loads with secret chats);
      // a secret item never takes the plaintext route, not even without a device.
      sendMessage: fromPromise(({ input }: { input: SendInput }) => {
        if (!input) return Promise.reject(new RequestFailure(null, null));
        const { secret, device, ...body } = input;
        if (secret)
          return import('../secretChats/secretChats-send.effects').then((m) =>
            m.sendSecretMessage(device ?? null, body),
          );
        return s.api.call('send', { body });
      }),
    } satisfies OutboxEffects,
  });
}

/** The composer with its recorder and its outbox wired. */
export function wireComposer(s: Services) {
  return composerMachine.provide({
    actors: {
      recorder: recorderMachine.provide({ actors: { record: recordVoiceActor(s.api) } satisfies RecorderEffects }),
      outbox: wireOutbox(s),
      drafts: draftsMachine.provide({
        actors: {
          loadDrafts: fromPromise(async ({ input }: { input: { userId: string } }) =>
            parseDrafts(s.draftStore.load(input.userId)),
          ),
          // Only for the signed-in user: a write that comes after sign-out cleared the browser writes nothing.
          saveDrafts: fromPromise(async ({ input }: { input: { userId: string; drafts: DraftMap } }) => {
            if (s.currentUserId() === input.userId) s.draftStore.save(input.userId, input.drafts);
          }),
          pageExit: pageExitActor,
        } satisfies DraftsEffects,
      }),
    } satisfies ComposerEffects,
  });
}

/** `drafts.flush` when the page is hidden or unloads (a reload right after typing keeps the text). */
export const pageExitActor = fromCallback(({ sendBack }) => {
  if (typeof window === 'undefined') return;
  const flush = () => sendBack({ type: 'drafts.flush' });
  const hidden = () => {
    if (document.visibilityState === 'hidden') flush();
  };
  window.addEventListener('pagehide', flush);
  document.addEventListener('visibilitychange', hidden);
  return () => {
    window.removeEventListener('pagehide', flush);
    document.removeEventListener('visibilitychange', hidden);
  };
});
