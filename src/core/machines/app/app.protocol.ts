// The root actor's protocol: its input. It accepts no events of its own; its children are reached through the
// typed map of src/core/machines/system.ts.
import type { Session } from '../../../contract/entities';

export interface AppInput {
  stored?: Session | null;
}
