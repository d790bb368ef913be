// The call overlay of a secret chat: it holds the call-key actor (secretCall, docs/secret-chats.md "Calls") while
// the call is open, hands its newest media key to the conference, which encrypts the media end to end with it, and
// lets the conference carry the call secret's exchange between the actor and the room.
import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import type { SecretCallInput } from '../../machines/secretChats/secretCall/secretCall.protocol';
import { useOwnedActor } from '../app/useOwnedActor';
import { type CallOverlayProps, ConnectedCallOverlay } from './CallOverlay';
import type { CallKeyExchange } from './conference-rules';

export function SecretCallOverlay(
  props: CallOverlayProps & { secret: SecretCallInput; conversationId?: string | null },
) {
  // Guests are let in with the call key sealed to them (docs/secret-chats.md "Guests in encrypted calls").
  return <ConnectedCallOverlay {...props} e2ee={useSecretCallKey(props.secret)} secretDoor={props.secret} />;
}

export function useSecretCallKey(secret: SecretCallInput) {
  const actor = useOwnedActor('secretCall', secret);
  const key = useSelector(actor, (s) => s?.context.key ?? null);
  const error = useSelector(actor, (s) => (s?.hasTag('error') ? s.context.error : null));
  const ready = useSelector(actor, (s) => s?.context.base != null);
  const exchange = useMemo<CallKeyExchange>(
    () => ({
      ready,
      tell: (event) => actor.send(event),
      onSend: (listener) => {
        const sub = actor.on('secretCall.send', (m) => listener({ payload: m.payload, to: m.to }));
        return () => sub.unsubscribe();
      },
    }),
    [actor, ready],
  );
  return { key, error, exchange };
}
