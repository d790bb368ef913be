// The page-back actor's protocol (the conversation actor's child 'pageBack'): "page until found", older pages of the
// history one after another until a goal is among them or the server has no more. The conversation invokes it to
// reach a quoted message or search result, and, on opening, the first unread message. Peers import this module,
// never pageBack.machine.ts.
import type { ResponseOf } from '../../../contract/api';
import type { Message } from '../../../contract/entities';
import type { MachineRef } from '../../shared/machine-ref';
import type { PromiseActorLogic } from 'xstate';

/** A page of the history: the latest (no `before`), or the one just older than the message `before`. */
export type PageInput = { conversationId: string; before?: string; limit: number };
export type Page = ResponseOf<'messages'>;

/**
 * What to page back to: a message (a quote or search result: the page holding it), or the first unread one (enough
 * pages that `unread` messages from others are loaded, or UNREAD_REACH messages in all).
 */
export type PageBackGoal = { messageId: string } | { unread: number; me: string };

export interface PageBackInput {
  conversationId: string;
  /** The oldest message loaded: the first page is the one before it. */
  before: string | undefined;
  goal: PageBackGoal;
}

export interface PageBackContext extends PageBackInput {
  /** The page just fetched, until the parent has answered with its history. */
  page: Page | null;
  found: boolean;
}

export type PageBackEvent =
  /**
   * The parent's answer to each `pageBack.page`: its history as it was before that page went in (the goal is
   * judged on it and the page, the next page comes before the older of the two).
   */
  | { type: 'pageBack.history'; messages: Message[] }
  /** Another message to look for (a jump while paging): the paging goes on from where it is. */
  | { type: 'pageBack.retarget'; messageId: string };

/** What it tells its parent: each page as it comes (the parent puts it in front of its history and answers). */
export type PageBackParentEvent = { type: 'pageBack.page'; page: Page };

/** `found`: the goal was reached (else the server had no more, or did not answer). */
export interface PageBackOutput {
  found: boolean;
}

export type PageBackRef = MachineRef<PageBackContext, PageBackEvent>;

/**
 * The machine's port: the effects it leaves to its feature's services
 * (src/services/conversation/conversation.effects.ts).
 */
export interface PageBackEffects {
  fetchPage: PromiseActorLogic<Page, PageInput>;
}
