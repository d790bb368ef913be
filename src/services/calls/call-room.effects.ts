// A group's call's hands and moderation provided from the real services: the owner's or admin's requests. A module of
// its own: it loads with the call's overlay, not with the first bundle.
import { fromPromise } from 'xstate';
import type { Services } from '../app/services';
import {
  type CallRoomEffects,
  callRoomMachine,
  type ModerationAction,
} from '../../machines/calls/callRoom/callRoom.machine';

export function wireCallRoom(s: Services) {
  return callRoomMachine.provide({
    actors: {
      currentHands: fromPromise(
        async ({ input }: { input: { conversationId: string } }) =>
          (await s.api.call('groupCall', { params: { id: input.conversationId } })).call?.hands ?? [],
      ),
      moderate: fromPromise(
        async ({ input }: { input: { conversationId: string; userId: string; action: ModerationAction } }) =>
          s.api.call(input.action === 'mute' ? 'groupCallMute' : 'groupCallRemove', {
            params: { id: input.conversationId },
            body: { userId: input.userId },
          }),
      ),
    } satisfies CallRoomEffects,
  });
}
