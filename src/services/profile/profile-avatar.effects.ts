// The avatar editor provided from the real services, for the own picture (the chats footer's profile dialog) and a
// group's («Информация»). A module of its own: it loads when an editor is first opened (src/machines/app/registry.ts),
// not with the first bundle.
import { fromPromise } from 'xstate';
import type { Services } from '../app/services';
import { type AvatarEffects, avatarMachine } from '../../machines/profile/avatar/avatar.machine';

export function wireAvatar(s: Services) {
  return avatarMachine.provide({
    actors: {
      readImage: fromPromise(({ input }: { input: { file: Blob } }) => s.avatarImage.read(input.file)),
      cropImage: fromPromise(
        ({ input }: { input: { source: string; area: { x: number; y: number; width: number; height: number } } }) =>
          s.avatarImage.crop(input.source, input.area),
      ),
      uploadImage: fromPromise<{ url: string }, { file: Blob }>(({ input, signal }) =>
        s.upload(Object.assign(input.file, { name: 'avatar.webp' }), { signal }),
      ),
      saveAvatar: fromPromise<unknown, { avatarUrl: string; conversationId: string | null }>(({ input }) =>
        s.api.call('patchMe', { body: { avatarUrl: input.avatarUrl } }),
      ),
    } satisfies AvatarEffects,
  });
}

/** The same editor for a group's picture: saved with PATCH /api/conversations/:id. */
export function wireGroupAvatar(s: Services) {
  return wireAvatar(s).provide({
    actors: {
      saveAvatar: fromPromise<unknown, { avatarUrl: string; conversationId: string | null }>(({ input }) =>
        s.api.call('updateConversation', {
          params: { id: input.conversationId ?? '' },
          body: { avatarUrl: input.avatarUrl },
        }),
      ),
      // Only the saving differs from the own picture's editor.
    } satisfies Pick<AvatarEffects, 'saveAvatar'>,
  });
}
