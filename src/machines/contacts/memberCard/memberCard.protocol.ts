// A group member's card (docs/behaviour.md §10.26): a click on a sender's name in a group's timeline shows their
// name, @username, picture and presence with «Написать» (opens the direct chat, or makes it, and goes there) and
// «Добавить в друзья» (a friend request; absent for a friend, «Заявка отправлена» while one waits). The same machine,
// registered again as `memberWrite`, is «Написать» on a member's row in «Информация»: it starts by opening the chat.
// Views import this module, never memberCard.machine.ts.
import type { PublicUser } from '../../../contract/entities';
import type { MachineRef } from '../../shared/machine-ref';
import type { BodyOf, ResponseOf } from '../../../contract/api';
import type { PromiseActorLogic } from 'xstate';

/** Whom the card shows; `write`: open the chat at once (the row's «Написать»), no card. */
export interface MemberCardInput {
  user: PublicUser;
  write?: boolean;
}

/** Where the two people stand: friends, a request either way, or neither. */
export type Relation = 'friend' | 'outgoing' | 'incoming' | 'none';

export interface MemberCardContext {
  user: PublicUser;
  /** Started by a row's «Написать»: no card, the chat is opened at once. */
  write: boolean;
  /** Null until the contacts list answered (or when it could not). */
  relation: Relation | null;
  /** The server's Russian refusal (e.g. «Пользователь принимает сообщения только от друзей»). */
  error: string | null;
}

export type MemberCardEvent =
  | { type: 'card.write' }
  | { type: 'card.befriend' }
  | { type: 'card.dismiss' }
  | { type: 'card.close' };

/** Tags the view asks. `done`: the card is over (chat opened or closed), the view unmounts it. */
export const CARD_TAGS = {
  loading: 'loading',
  busy: 'busy',
  failed: 'failed',
  done: 'done',
} as const;

export const CARD_FAILED = 'Не удалось выполнить действие. Попробуйте ещё раз.';

export type MemberCardRef = MachineRef<MemberCardContext, MemberCardEvent>;

/**
 * The machine's port: the effects it leaves to its feature's services (src/services/contacts/memberCard.effects.ts).
 */
export interface MemberCardEffects {
  loadRelation: PromiseActorLogic<Relation, { userId: string }>;
  openDirect: PromiseActorLogic<ResponseOf<'conversationWith'>, BodyOf<'conversationWith'>>;
  addContact: PromiseActorLogic<ResponseOf<'contactAdd'>, BodyOf<'contactAdd'>>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    /** The member card a click on a sender's name opens (spawned while it is shown). */
    memberCard: MemberCardRef;
    /** «Написать» on a member's row in «Информация» (spawned for the one request). */
    memberWrite: MemberCardRef;
  }
}
