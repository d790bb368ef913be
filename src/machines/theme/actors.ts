// The theme feature's actors (the colour theme, signed in or not) as the app registers them: each line says what the
// actor is and how long it lives. src/machines/app/registry.ts concatenates every feature's lines; their effects are
// the feature's own (src/services/theme/effects.ts); src/machines/README.md explains the fields.
import type { ActorLines } from '../shared/actor-line';
import { themeMachine } from './theme/theme.machine';

export const themeActors = {
  theme: { machine: themeMachine, lifetime: 'session', systemId: true },
} as const satisfies ActorLines;
