// The effects of the message actions' dialogs, loaded with them (not in the first bundle).
import { fromPromise } from 'xstate';
import { copyText } from '../app/clipboard';
import type { Services } from '../app/services';
import {
  type EditHistoryEffects,
  editHistoryMachine,
} from '../../machines/messageActions/editHistory/editHistory.machine';
import {
  type ForwardPickerEffects,
  forwardPickerMachine,
} from '../../machines/messageActions/forwardPicker/forwardPicker.machine';
import {
  type MessageInfoEffects,
  messageInfoMachine,
} from '../../machines/messageActions/messageInfo/messageInfo.machine';
import { type SelectionEffects, selectionMachine } from '../../machines/messageActions/selection/selection.machine';

export const wireForwardPicker = (s: Services) =>
  forwardPickerMachine.provide({
    actors: {
      // One at a time: a refusal (say, «Кто может мне писать») stops at that person, in the server's words.
      openDirect: fromPromise<string[], { userIds: string[] }>(async ({ input }) => {
        const ids: string[] = [];
        for (const userId of input.userIds)
          ids.push((await s.api.call('conversationWith', { body: { userId } })).conversation.id);
        return ids;
      }),
      forward: fromPromise<unknown, { messageIds: string[]; conversationIds: string[] }>(({ input }) =>
        s.api.call('forwardMessages', { body: input }),
      ),
    } satisfies ForwardPickerEffects,
  });

export const wireMessageInfo = (s: Services) =>
  messageInfoMachine.provide({
    actors: {
      load: fromPromise(({ input }: { input: { messageId: string } }) =>
        s.api.call('messageInfo', { params: { id: input.messageId } }),
      ),
    } satisfies MessageInfoEffects,
  });

export const wireEditHistory = (s: Services) =>
  editHistoryMachine.provide({
    actors: {
      load: fromPromise(({ input }: { input: { messageId: string } }) =>
        s.api.call('messageEdits', { params: { id: input.messageId } }),
      ),
    } satisfies EditHistoryEffects,
  });

export const wireSelection = (_s: Services) =>
  selectionMachine.provide({
    actors: {
      copyText,
    } satisfies SelectionEffects,
  });
