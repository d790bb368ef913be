// SecretChatNotice's view of this conversation's secret chat actor (the device actor's child `chat:<id>`; none for
// a chat that is not secret): whether this device waits to be added (or added again), was removed, or failed for now; and, from the
// device actor, an edit or a reaction of this chat that could not be sent, and the members who have no device yet.
import { useSelector } from '@xstate/react';
import { useCallback, useMemo } from 'react';
import { REJOIN_NOTICE } from '../../machines/secretChats/secretChat/secretChat.protocol';
import {
  identityChangedNotice,
  noDeviceNotice,
  secretChatOf,
} from '../../machines/secretChats/secretDevice/secretDevice.protocol';
import { useSecretDeviceRef } from './useSecretDeviceRef';

export const WAITING_NOTICE =
  'Это устройство ещё не добавлено в секретный чат: его добавит другое устройство участников, когда будет в сети';
export const REMOVED_NOTICE = 'Это устройство больше не участвует в секретном чате';

export interface SecretChatNoticeView {
  notice: string | null;
  /** «Борис ещё не открывал Беседу в браузере — …», one for each member without a device. */
  absent: string[];
  /** «Борис: ключ личности сменился — …», in red, for each member whose new identity key is not accepted. */
  changed: string[];
  /** «Не удалось изменить сообщение» and the like, until dismissed. */
  failure: string | null;
  dismiss(): void;
}

const NONE: string[] = [];

/** `names`: the chat's members' display names by id (the notice names who has no device yet). */
export function useSecretChatNotice(
  conversationId: string,
  names: Readonly<Record<string, string>> = {},
): SecretChatNoticeView {
  const device = useSecretDeviceRef();
  const chat = useSelector(device, secretChatOf(conversationId));
  const notice = useSelector(chat, (s) => {
    if (!s) return null;
    if (s.hasTag('rejoining')) return REJOIN_NOTICE;
    if (s.hasTag('waiting')) return WAITING_NOTICE;
    if (s.hasTag('removed')) return REMOVED_NOTICE;
    if (s.hasTag('error')) return s.context.error;
    return null;
  });
  const failure = useSelector(device, (s) => s?.context.actionFailures[conversationId] ?? null);
  const absentIds = useSelector(device, (s) => s?.context.withoutDevice[conversationId] ?? NONE);
  const absent = useMemo(
    () => absentIds.filter((id) => names[id] !== undefined).map((id) => noDeviceNotice(names[id] as string)),
    [absentIds, names],
  );
  const changedIds = useSelector(device, (s) => s?.context.identityChanged ?? NONE);
  const changed = useMemo(
    () => changedIds.filter((id) => names[id] !== undefined).map((id) => identityChangedNotice(names[id] as string)),
    [changedIds, names],
  );
  const dismiss = useCallback(
    () => device?.send({ type: 'secretDevice.dismissFailure', conversationId }),
    [device, conversationId],
  );
  return { notice, absent, changed, failure, dismiss };
}
