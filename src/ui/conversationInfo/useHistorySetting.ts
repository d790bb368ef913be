// «История для новых участников»: its actor (alive while the setting is shown) and the group's current value as
// plain values and callbacks. The value shown is the one being saved, else the group's.
import { useSelector } from '@xstate/react';
import { HISTORY_TAGS } from '../../machines/conversationInfo/historySetting/historySetting.protocol';
import { useOwnedActor } from '../app/useOwnedActor';

export function useHistorySetting(conversationId: string, visible: boolean) {
  const actor = useOwnedActor('historySetting', { conversationId });
  const choice = useSelector(actor, (s) => s?.context.choice ?? null);
  return {
    visible: choice ?? visible,
    saving: useSelector(actor, (s) => s?.hasTag(HISTORY_TAGS.saving) ?? false),
    error: useSelector(actor, (s) => s?.context.error ?? null),
    onSet: (next: boolean) => {
      if (next !== (choice ?? visible)) actor.send({ type: 'history.set', visible: next });
    },
    onDismiss: () => actor.send({ type: 'history.dismiss' }),
  };
}
export type HistorySettingView = ReturnType<typeof useHistorySetting>;
