// «Импорт истории»'s effects: the imports API for plain chats, and for a secret chat the browser's own reading and
// encrypting of the export (services/historyImport/secret-import.ts) with this device's group keys.
import { fromCallback, fromPromise } from 'xstate';
import { failureMessage } from '../../contract/failure';
import { ACTIVE_IMPORT, type ImportJob, type ImportStartBody } from '../../contract/history-import/jobs';
import { ImportFormatError } from '../../contract/history-import/types';
import { secretCrypto } from '../secretChats/crypto/worker-client';
import { indexedDbPositions } from './positions';
import { analyseSecretExport, runSecretImport, type SecretImportDeps } from './secret-import';
import {
  type HistoryImportEffects,
  historyImportMachine,
  type HistoryImportWorkEvent,
  IMPORT_READ_FAILED,
  IMPORT_UPLOAD_FAILED,
} from '../../machines/historyImport/historyImport/historyImport.machine';
import type { Services } from '../app/services';
import { secretEffects } from '../secretChats/secretChats.effects';

/** A reader's refusal says what is wrong with the file; anything else, the server's words or the fallback. */
function readFailure(e: unknown): string {
  return e instanceof ImportFormatError ? e.message : failureMessage(e, IMPORT_READ_FAILED);
}

export function wireHistoryImport(s: Services) {
  const positions = indexedDbPositions();
  let deps: Promise<SecretImportDeps> | null = null;
  const secretDeps = () =>
    (deps ??= import('../../contract/history-import').then((reader) => ({
      api: s.imports,
      crypto: secretCrypto(),
      deviceId: (userId: string) =>
        secretEffects(s)
          .device(userId)
          .then((d) => d.deviceId),
      transfer: s.secretFiles,
      positions,
      reader,
    })));
  return historyImportMachine.provide({
    actors: {
      findJob: fromPromise<ImportJob | null, { conversationId: string | null }>(async ({ input }) => {
        const jobs = await s.imports.list();
        return (
          jobs.find(
            (j) =>
              ACTIVE_IMPORT.includes(j.status) &&
              (input.conversationId === null
                ? j.conversationId === null || j.status === 'running'
                : j.conversationId === input.conversationId),
          ) ?? null
        );
      }),
      upload: fromCallback<HistoryImportWorkEvent, { file: File; conversationId: string | null }>(
        ({ sendBack, input }) => {
          const abort = new AbortController();
          s.imports
            .upload(input.file, input.conversationId, {
              signal: abort.signal,
              onProgress: (percent) => sendBack({ type: 'upload.progress', percent }),
            })
            .then(
              (job) => sendBack({ type: 'upload.done', job }),
              (e: unknown) => {
                if (!abort.signal.aborted)
                  sendBack({ type: 'upload.failed', message: failureMessage(e, IMPORT_UPLOAD_FAILED) });
              },
            );
          return () => abort.abort();
        },
      ),
      fetchJob: fromPromise<ImportJob, { id: string }>(({ input }) => s.imports.get(input.id)),
      chooseChat: fromPromise<ImportJob, { id: string; chatId: string }>(({ input }) =>
        s.imports.chooseChat(input.id, input.chatId),
      ),
      start: fromPromise<ImportJob, { id: string; body: ImportStartBody }>(({ input }) =>
        s.imports.start(input.id, input.body),
      ),
      cancel: fromPromise<ImportJob, { id: string }>(({ input }) => s.imports.cancel(input.id)),
      analyseLocal: fromPromise(
        async ({ input }: { input: { file: File; conversationId: string; chatId: string | null } }) => {
          const userId = s.currentUserId();
          if (!userId) throw new ImportFormatError(IMPORT_READ_FAILED);
          try {
            return await analyseSecretExport(await secretDeps(), { ...input, userId });
          } catch (e) {
            throw new ImportFormatError(readFailure(e));
          }
        },
      ),
      secretImport: fromCallback<
        HistoryImportWorkEvent,
        { file: File; conversationId: string; userId: string; chatId: string | null }
      >(({ sendBack, input }) => {
        const abort = new AbortController();
        secretDeps()
          .then((d) =>
            runSecretImport(d, input, (p) => sendBack({ type: 'secretImport.progress', ...p }), abort.signal),
          )
          .then(
            (p) => {
              if (!abort.signal.aborted) sendBack({ type: 'secretImport.done', ...p });
            },
            (e: unknown) => {
              if (!abort.signal.aborted) sendBack({ type: 'secretImport.failed', message: readFailure(e) });
            },
          );
        return () => abort.abort();
      }),
    } satisfies HistoryImportEffects,
  });
}
