// The theme actor's effects: the choice in localStorage, the system's setting from matchMedia, the scheme on <html>.
import { fromCallback, fromPromise } from 'xstate';
import { DARK_QUERY, isThemeChoice, THEME_KEY, type ThemeChoice } from '../../contract/theme';
import { type ThemeCommand, type ThemeEffects, themeMachine } from '../../machines/theme/theme/theme.machine';

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function wireTheme() {
  return themeMachine.provide({
    actors: {
      readChoice: fromPromise(async (): Promise<ThemeChoice> => {
        const stored = storage()?.getItem(THEME_KEY);
        return isThemeChoice(stored) ? stored : 'system';
      }),
      systemScheme: fromCallback(({ sendBack }) => {
        if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return;
        const query = window.matchMedia(DARK_QUERY);
        const report = () => sendBack({ type: 'theme.system', dark: query.matches });
        report();
        query.addEventListener?.('change', report);
        return () => query.removeEventListener?.('change', report);
      }),
      document: fromCallback<ThemeCommand>(({ receive }) => {
        receive((command) => {
          if (command.type === 'theme.apply') {
            if (typeof document !== 'undefined') document.documentElement.dataset.theme = command.scheme;
            return;
          }
          try {
            // «Системная» is the default: nothing kept.
            if (command.choice === 'system') storage()?.removeItem(THEME_KEY);
            else storage()?.setItem(THEME_KEY, command.choice);
          } catch {
            /* storage full or off: the choice lasts this page view */
          }
        });
      }),
    } satisfies ThemeEffects,
  });
}
