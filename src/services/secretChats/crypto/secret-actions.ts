// A secret chat's edits and reactions (docs/secret-chats.md "Edits, reactions and deletions"): each is an encrypted
// message of its own naming its target, and every device applies it to the target's kept plaintext. What is kept
// is the log of what was applied (by the control message's id), not only its result, so that the outcome does not
// depend on the order a device happens to read them in: the edit with the greatest id wins, and reactions toggle
// in id order (message ids are UUIDv7: they grow with the server's time). Pure: the crypto core stores the result.
import { REACTION_EMOJI } from '../../../contract/limits';
import { idOf } from './envelope';
import type { SecretReaction } from '../../../machines/secretChats/secretDevice/secretDevice.protocol';

export type { SecretReaction };

/** What has been applied to a kept message. */
export interface SecretActions {
  /** The latest edit by its sender: the control message's id and the new text. */
  edit?: { id: string; text: string };
  /** Every reaction toggle, by control message id (ascending). */
  reactions?: { id: string; userId: string; emoji: string }[];
}

/** The fields of a kept plaintext this module reads and writes (SecretPlaintext of secret-crypto.ts). */
interface Kept {
  messageId: string;
  senderUserId: string;
  envelope: { id?: string; kind: string; text?: string; targetId?: string; emoji?: string };
  actions?: SecretActions;
}

/** Whether this envelope changes another message (so it is applied, not shown). */
export const isControl = (envelope: { kind: string }) =>
  envelope.kind === 'edit' || envelope.kind === 'reaction' || envelope.kind === 'copy';

/**
 * The target with the control applied, or null when it changes nothing: a control for another message, an edit by
 * anyone but the target's sender, an edit older than the one applied, or a control already applied.
 */
export function applyControl<T extends Kept>(target: T, control: Kept): T | null {
  const e = control.envelope;
  // Both named by their senders' ids (version 2), or the server's (version 1).
  if (e.targetId !== idOf(target) || target.envelope.kind !== 'text') return null;
  const at = idOf(control);
  const actions = target.actions ?? {};
  if (e.kind === 'edit' && typeof e.text === 'string') {
    // MLS authenticated the control's sender: only the author changes a text.
    if (control.senderUserId !== target.senderUserId) return null;
    if (actions.edit && actions.edit.id >= at) return null;
    return { ...target, actions: { ...actions, edit: { id: at, text: e.text } } };
  }
  if (e.kind === 'reaction' && typeof e.emoji === 'string') {
    const log = actions.reactions ?? [];
    if (log.some((r) => r.id === at)) return null;
    const next = [...log, { id: at, userId: control.senderUserId, emoji: e.emoji }].sort((a, b) =>
      a.id < b.id ? -1 : a.id > b.id ? 1 : 0,
    );
    return { ...target, actions: { ...actions, reactions: next } };
  }
  return null;
}

/** The reactions the toggles come to: the quick ones in their order, then the others by first use. */
export function reactionsOf(actions: SecretActions | undefined): SecretReaction[] {
  const by = new Map<string, string[]>();
  for (const r of actions?.reactions ?? []) {
    const users = by.get(r.emoji) ?? [];
    by.set(r.emoji, users.includes(r.userId) ? users.filter((u) => u !== r.userId) : [...users, r.userId]);
  }
  const order: readonly string[] = REACTION_EMOJI;
  const rank = (e: string) => (order.includes(e) ? order.indexOf(e) : order.length);
  return [...by]
    .filter(([, userIds]) => userIds.length > 0)
    .map(([emoji, userIds]) => ({ emoji, userIds }))
    .sort((a, b) => rank(a.emoji) - rank(b.emoji));
}

/** When a message was sent, from its UUIDv7 id (the first 48 bits are Unix milliseconds); null for another id. */
export function timeOfId(id: string): string | null {
  const hex = id.replace(/-/g, '');
  if (!/^[0-9a-f]{32}$/i.test(hex) || hex[12] !== '7') return null;
  return new Date(Number.parseInt(hex.slice(0, 12), 16)).toISOString();
}

/** What a view shows of a kept text message: its current text, when it was last edited, its reactions. */
export function shownOf(kept: Kept): { text: string; edited: string | null; reactions: SecretReaction[] } {
  const edit = kept.actions?.edit;
  return {
    text: edit?.text ?? kept.envelope.text ?? '',
    edited: edit ? (timeOfId(edit.id) ?? new Date(0).toISOString()) : null,
    reactions: reactionsOf(kept.actions),
  };
}
