// The theme actor's protocol (systemId 'theme', session-long): «Тема» in Settings chooses; the system's setting is
// heard live. Views import this module, never theme.machine.ts.
import type { Scheme, ThemeChoice } from '../../../contract/theme';
import type { MachineRef } from '../../shared/machine-ref';
import type { CallbackActorLogic, EventObject, PromiseActorLogic } from 'xstate';

export type { Scheme, ThemeChoice } from '../../../contract/theme';

export interface ThemeContext {
  choice: ThemeChoice;
  /** The system asks for dark (prefers-color-scheme). */
  systemDark: boolean;
}

export type ThemeEvent =
  | { type: 'theme.choose'; choice: ThemeChoice }
  /** The system's setting, at start and on every change. */
  | { type: 'theme.system'; dark: boolean };

/** What its document actor is told: show a scheme; keep a choice on this device. */
export type ThemeCommand = { type: 'theme.apply'; scheme: Scheme } | { type: 'theme.store'; choice: ThemeChoice };

export type ThemeRef = MachineRef<ThemeContext, ThemeEvent>;

/** The machine's port: the effects it leaves to its feature's services (src/services/theme/theme.effects.ts). */
export interface ThemeEffects {
  /** The choice kept on this device ('system' when none). */
  readChoice: PromiseActorLogic<ThemeChoice, unknown>;
  /** `theme.system` at start and whenever the system's setting changes. */
  systemScheme: CallbackActorLogic<EventObject, unknown>;
  /** Shows a scheme on the page and keeps a choice (ThemeCommand). */
  document: CallbackActorLogic<ThemeCommand, unknown>;
}

declare module '../../shared/system' {
  interface SystemActors {
    theme: ThemeRef;
  }
}
