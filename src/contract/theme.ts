// The colour theme (docs/behaviour.md §10.18): «Системная» (the system's light or dark, followed live), «Светлая»,
// «Тёмная». The choice is this device's (localStorage), not the account's, and stays after sign-out: it says nothing
// about the person. The script below runs in <head> before the first paint (inline: the build puts it there and the
// server's Content-Security-Policy allows exactly it by its hash), so a dark page never flashes light.
export const THEME_KEY = 'beseda.theme';

export const THEME_CHOICES = ['system', 'light', 'dark'] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];
export type Scheme = 'light' | 'dark';

export const THEME_LABELS: Record<ThemeChoice, string> = {
  system: 'Системная',
  light: 'Светлая',
  dark: 'Тёмная',
};

export const DARK_QUERY = '(prefers-color-scheme: dark)';

/** Sets <html data-theme> from the stored choice and the system's setting; any failure leaves the light theme. */
export const THEME_INIT_SCRIPT =
  "(function(){try{var c=localStorage.getItem('beseda.theme');" +
  "var d=c==='dark'||(c!=='light'&&matchMedia('(prefers-color-scheme: dark)').matches);" +
  "document.documentElement.dataset.theme=d?'dark':'light'}catch(e){}})();";

/** The scheme a choice shows, given whether the system is dark. */
export const schemeOf = (choice: ThemeChoice, systemDark: boolean): Scheme =>
  choice === 'system' ? (systemDark ? 'dark' : 'light') : choice;

export const isThemeChoice = (v: unknown): v is ThemeChoice =>
  typeof v === 'string' && (THEME_CHOICES as readonly string[]).includes(v);
