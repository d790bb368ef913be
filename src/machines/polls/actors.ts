// The polls feature's actors («Опрос», docs/behaviour.md §10.33 Polls) as the app registers them: each line says what
// the actor is and how long it lives. src/machines/app/registry.ts concatenates every feature's lines; their effects
// are the feature's own (src/services/polls/effects.ts); src/machines/README.md explains the fields.
import type { ActorLines } from '../shared/actor-line';

export const pollsActors = {
  pollComposer: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
  pollVotes: {
    load: 'wired',
    lifetime: 'owned',
    owner: 'view',
  },
} as const satisfies ActorLines;
