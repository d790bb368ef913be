// The drafts actor's protocol (the composer's child 'drafts'): it reads the user's drafts kept in the browser once,
// and writes them back shortly after each change, so a reload keeps every conversation's unsent text.
// Peers and views import this module, never drafts.machine.ts.
import type { MachineRef } from '../../shared/machine-ref';
import type { CallbackActorLogic, EventObject, PromiseActorLogic } from 'xstate';

export interface ReplyTarget {
  id: string;
  content: string;
}

/** A conversation's unsent text and reply, kept while another conversation is in front. */
export interface Draft {
  text: string;
  replyTo: ReplyTarget | null;
}

export type DraftMap = Record<string, Draft>;

export interface DraftsInput {
  userId: string;
}

export interface DraftsContext {
  userId: string;
  /** The drafts to write next; null when everything is written. */
  pending: DraftMap | null;
  /** The drafts being written now. */
  writing: DraftMap;
}

export type DraftsEvent =
  /** The composer's drafts changed (all of them, the open conversation's text included). */
  | { type: 'drafts.changed'; drafts: DraftMap }
  /** The page is going away: write now. */
  | { type: 'drafts.flush' };

/** What it tells its parent (the composer): the drafts read from the browser. */
export type DraftsParentEvent = { type: 'drafts.loaded'; drafts: DraftMap };

/** The stored drafts as read, kept only where well-formed. */
export function parseDrafts(raw: unknown): DraftMap {
  const out: DraftMap = {};
  if (!raw || typeof raw !== 'object') return out;
  for (const [id, d] of Object.entries(raw as Record<string, unknown>)) {
    if (!d || typeof d !== 'object') continue;
    const { text, replyTo } = d as { text?: unknown; replyTo?: unknown };
    if (typeof text !== 'string') continue;
    const reply =
      replyTo && typeof replyTo === 'object' && typeof (replyTo as { id?: unknown }).id === 'string'
        ? {
            id: (replyTo as { id: string }).id,
            content: String((replyTo as { content?: unknown }).content ?? ''),
          }
        : null;
    if (text || reply) out[id] = { text, replyTo: reply };
  }
  return out;
}

export type DraftsRef = MachineRef<DraftsContext, DraftsEvent>;

/** The machine's port: the effects it leaves to its feature's services (src/services/composer/composer.effects.ts). */
export interface DraftsEffects {
  /** The stored drafts of a user (src/services/composer/composer.effects.ts). */
  loadDrafts: PromiseActorLogic<DraftMap, { userId: string }>;
  /** Writes a user's drafts. */
  saveDrafts: PromiseActorLogic<void, { userId: string; drafts: DraftMap }>;
  /** Reports `drafts.flush` when the page is hidden or unloads. */
  pageExit: CallbackActorLogic<EventObject, unknown>;
}
