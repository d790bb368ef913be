// The EBLID search's protocol (registry line 'contactCode'): the events it accepts from the four boxes and the add
// button, and the notice it shows. Views import this module, never contactCode.machine.ts.
import type { Contact, PublicUser } from '../../../contract/entities';
import type { MachineRef } from '../../shared/machine-ref';
import type { CodeBoxes } from './code-boxes';
import type { PromiseActorLogic } from 'xstate';

export const SEARCH_LIMITED = 'Слишком много поисков. Попробуйте через минуту.';
export const NOBODY_FOUND = 'Никого с таким EBLID';
export const ADD_FAILED = 'Не удалось добавить';

export interface CodeNotice {
  kind: 'info' | 'error';
  text: string;
}

export interface ContactCodeContext extends CodeBoxes {
  /** The user found for the current code (the first result, docs/behaviour.md §3). */
  result: PublicUser | null;
  notice: CodeNotice | null;
}

export type ContactCodeEvent =
  | { type: 'code.typed'; index: number; value: string }
  | { type: 'code.backspace'; index: number }
  | { type: 'code.pasted'; text: string }
  | { type: 'code.focused'; index: number }
  | { type: 'code.add' }
  | { type: 'code.reset' };

export interface SearchOutput {
  code: string;
  user: PublicUser | null;
}

export type ContactCodeRef = MachineRef<ContactCodeContext, ContactCodeEvent>;

/**
 * The machine's port: the effects it leaves to its feature's services (src/services/contacts/contacts-
 * dialog.effects.ts).
 */
export interface ContactCodeEffects {
  /** GET /contacts/search?code=…; resolves the code it looked up with the first result. */
  search: PromiseActorLogic<SearchOutput, { code: string }>;
  /** POST /contacts/add with the code as identifier. */
  addContact: PromiseActorLogic<{ contact: Contact }, { identifier: string }>;
}
