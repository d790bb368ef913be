// «Тема» in Settings: the theme actor's choice and a callback to change it.
import { useSelector } from '@xstate/react';
import type { ThemeChoice } from '../../machines/theme/theme/theme.protocol';
import { useSystemActor } from '../app/RuntimeContext';

export function useTheme() {
  const theme = useSystemActor('theme');
  const choice = useSelector(theme, (s) => s?.context.choice ?? 'system');
  return { choice, choose: (next: ThemeChoice) => theme?.send({ type: 'theme.choose', choice: next }) };
}
