// Approving a new device of this person (owned by the device holder's view beside the device actor, while the
// chats page shows it; docs/secret-chats.md "Identity keys"): a new sign-in asks for the identity key, and this
// device — one that holds it — asks its person «Новое устройство входит в секретные чаты: подтвердить?» with the
// short code the new device shows. The same actor tells the view when this device itself waits for such an
// approval, with its code. Views import this module, never secretApproval.machine.ts.
import type { MachineRef } from '../../shared/machine-ref';
import type { CallbackActorLogic, PromiseActorLogic } from 'xstate';

export interface SecretApprovalInput {
  userId: string;
}

/** A new sign-in's request, with the code computed here from its keys (the same as on the new device). */
export interface ApprovalAsked {
  id: string;
  deviceKey: string;
  exchangeKey: string;
  code: string;
}

export interface SecretApprovalContext extends SecretApprovalInput {
  /** The request shown, or null. */
  request: ApprovalAsked | null;
  /** Requests the person declined on this device (not asked again). */
  declined: string[];
  /** This device's own request while it waits for an old device: its code. */
  ownCode: string | null;
  error: string | null;
}

export type SecretApprovalEvent =
  /** `secret:approval`: a request came (or was answered elsewhere): look again. */
  | { type: 'secretApproval.check' }
  | { type: 'secretApproval.confirm' }
  | { type: 'secretApproval.decline' }
  | { type: 'secretApproval.retry' }
  /** This device's own request: its code while it waits, null once answered; `declined` when refused. */
  | { type: 'secretApproval.waiting'; code: string | null; declined?: boolean }
  /** This device, declined: ask the old devices once more. */
  | { type: 'secretApproval.askAgain' }
  /** This device, declined and without the recovery key: a new identity key (the others see it changed). */
  | { type: 'secretApproval.reset' };

export const APPROVAL_QUESTION = 'Новое устройство входит в секретные чаты: подтвердить?';
export const APPROVAL_FAILED = 'Не удалось подтвердить устройство';
export const DECLINED_TEXT =
  'Вход в секретные чаты отклонён на другом вашем устройстве. Введите ключ восстановления или начните заново с новым ключом личности — тогда собеседники увидят, что ваш ключ сменился.';
export const RESET_FAILED = 'Не удалось создать новый ключ личности';
export const waitingText = (code: string) =>
  `Подтвердите вход в секретные чаты на другом своём устройстве, где открыта Беседа. Код: ${code}`;

export type SecretApprovalRef = MachineRef<SecretApprovalContext, SecretApprovalEvent>;

/**
 * The machine's port: the effects it leaves to its feature's services (src/services/secretChats/secretChats-
 * approval.effects.ts).
 */
export interface SecretApprovalEffects {
  listen: CallbackActorLogic<SecretApprovalEvent, SecretApprovalInput>;
  pending: PromiseActorLogic<ApprovalAsked[], SecretApprovalInput>;
  approve: PromiseActorLogic<unknown, SecretApprovalInput & { request: ApprovalAsked }>;
  decline: PromiseActorLogic<unknown, SecretApprovalInput & { request: ApprovalAsked }>;
  askAgain: PromiseActorLogic<unknown, SecretApprovalInput>;
  reset: PromiseActorLogic<unknown, SecretApprovalInput>;
}

declare module '../../shared/system' {
  interface OwnedActors {
    secretApproval: SecretApprovalRef;
  }
}
