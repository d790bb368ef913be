// The threads feature's effects: a thread's pages, a reply (the send route with threadRootId, idempotent by its
// clientMessageId; its files uploaded first through the composer's uploader, with progress), following and reading,
// each one request over the API client.
import { fromCallback, fromPromise } from 'xstate';
import type { ResponseOf } from '../../../contract/api';
import { RequestFailure } from '../../../contract/failure';
import { followedThreadsMachine } from '../../threads/followedThreads/followedThreads.machine';
import { threadPanelMachine } from '../../threads/threadPanel/threadPanel.machine';
import {
  THREAD_UPLOAD_FAILED,
  type ThreadFile,
  type ThreadPanelEvent,
  type ThreadSend,
  type ThreadUpload,
} from '../../threads/threadPanel/threadPanel.protocol';
import type { Services } from '../services';

export const wireFollowedThreads = (s: Services) =>
  followedThreadsMachine.provide({
    actors: { load: fromPromise<ResponseOf<'followedThreads'>>(() => s.api.call('followedThreads', {})) },
  });

export const wireThreadPanel = (s: Services) =>
  threadPanelMachine.provide({
    actors: {
      load: fromPromise<ResponseOf<'thread'>, { rootId: string; before?: string }>(({ input }) =>
        s.api.call('thread', { params: { id: input.rootId }, query: input.before ? { before: input.before } : {} }),
      ),
      send: fromPromise<ResponseOf<'send'>, ThreadSend>(({ input }) =>
        s.api.call('send', {
          body: {
            conversationId: input.conversationId,
            // Pictures only: an IMAGE message; any other file makes it a FILE one (as the main composer).
            type: input.attachments.length
              ? input.attachments.every((a) => a.type === 'IMAGE')
                ? 'IMAGE'
                : 'FILE'
              : 'TEXT',
            content: input.content,
            threadRootId: input.rootId,
            clientMessageId: crypto.randomUUID(),
            ...(input.attachments.length ? { attachments: input.attachments } : {}),
            ...(input.replyToId ? { replyToId: input.replyToId } : {}),
            ...(input.mentions.length ? { mentions: input.mentions } : {}),
          },
        }),
      ),
      loadUploadLimit: fromPromise(async () => (await s.api.call('instance')).uploadLimitBytes),
      upload: fromCallback<{ type: string }, { files: ThreadFile[] }>(({ input, sendBack }) => {
        const abort = new AbortController();
        const report = (e: ThreadPanelEvent) => {
          if (!abort.signal.aborted) sendBack(e);
        };
        const n = input.files.length;
        (async () => {
          const done: ThreadUpload[] = [];
          for (const [i, file] of input.files.entries()) {
            const onProgress = (p: number) =>
              report({ type: 'thread.uploadProgress', percent: Math.round((100 * i + p) / n) });
            const { attachment } = await s.upload(file, { onProgress, signal: abort.signal });
            done.push({ url: attachment.url, type: attachment.type });
          }
          return done;
        })().then(
          (attachments) => report({ type: 'thread.uploaded', attachments }),
          (error: unknown) =>
            report({
              type: 'thread.uploadFailed',
              message: (error instanceof RequestFailure && error.serverMessage) || THREAD_UPLOAD_FAILED,
            }),
        );
        return () => abort.abort();
      }),
      follow: fromPromise<ResponseOf<'followThread'>, { rootId: string; follow: boolean }>(({ input }) =>
        s.api.call('followThread', { body: input }),
      ),
      markRead: fromPromise<unknown, { rootId: string }>(({ input }) => s.api.call('readThread', { body: input })),
    },
  });
