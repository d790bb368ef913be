// The call overlay (docs/behaviour.md §2): 90 % of the width, 80 % of the height, at most 1200 px wide, holding the
// video conference. It renders nothing until the room's token and url exist. While the other side is being
// rung the header says so and offers to cancel; closing the view ends the call.
import { useSelector } from '@xstate/react';
import { type ComponentType, type ReactNode, Suspense, useLayoutEffect, useRef } from 'react';
import { useSessionActor } from '../app/RuntimeContext';
import { useLateSessionActor } from '../app/useOwnedActor';
import { useChatEntry } from '../shared/useChatList';
import type { ConversationChat } from './call-chat';
import {
  CALL_ENCRYPTED,
  type CallEncryption,
  type ConferenceProps,
  e2eeSupported,
  type GroupRoomPanel,
  type NoiseChoice,
} from './conference-rules';
import { LazyConference } from './LazyConference';
import { useCallChat } from './useCallChat';
import { useCallRoom } from './useCallRoom';
import { useNoiseSuppression } from './useNoiseSuppression';

export interface CallOverlayProps {
  token: string | null;
  url: string | null;
  /** The other side has not answered yet. */
  calling: boolean;
  /** A group's call: hanging up leaves it («Выйти из звонка»), the others stay. */
  group?: boolean;
  /** «Завершить для всех» (a group's owner and admins). */
  onEndForAll?: () => void;
  video: boolean;
  audio: boolean;
  onEnd: () => void;
  onFailed: (message: string, name?: string) => void;
  /** The conversation's chat (src/ui/calls/useCallChat.ts). */
  chat?: ConversationChat | null;
  /** A group's call: raised hands and its owner's and admins' moderation (useCallRoom.ts). */
  groupRoom?: GroupRoomPanel | null;
  /** «Шумоподавление» (useNoiseSuppression.ts). */
  noise?: NoiseChoice | null;
  /**
   * A secret chat's call (SecretCallOverlay): encrypted end to end, or not made at all — never in the clear. `error`
   * says why no key could be had.
   */
  e2ee?: (CallEncryption & { error: string | null }) | null;
  /** The call's room (`conv-<id>`): its members may invite guests through a link. */
  room?: string | null;
  /**
   * A secret chat's call (SecretCallOverlay): the door seals the call key to each guest it lets in
   * (docs/secret-chats.md "Guests in encrypted calls").
   */
  secretDoor?: { userId: string; conversationId: string } | null;
  /**
   * The door for guests around a plain call's conference (the guests feature's view, handed in by the app's layout so
   * that neither feature imports the other); absent: no guests.
   */
  door?: GuestDoorSlot | null;
  /** Whether this browser can encrypt frames (tests pass false). */
  canEncrypt?: boolean;
  /** The conference view; the lazy livekit chunk by default (tests pass a stand-in). */
  conference?: ComponentType<ConferenceProps>;
}

/** A view that wraps the call with the guest door and hands it the way to remove a guest. */
export type GuestDoorSlot = ComponentType<{
  room: string;
  secret?: { userId: string; conversationId: string } | null;
  children: (removeGuest: (knockId: string) => void) => ReactNode;
}>;

export { CALL_ENCRYPTED } from './conference-rules';
export const CALL_E2EE_UNSUPPORTED = 'Этот браузер не поддерживает зашифрованные звонки';

/**
 * The overlay with the call's conversation's chat panel: its hook comes with this chunk, since only an open call
 * shows it (the layer hands in the conversation; without one, the overlay alone).
 */
export function ConnectedCallOverlay(props: CallOverlayProps & { conversationId?: string | null }) {
  const { conversationId, ...overlay } = props;
  return conversationId ? <WithChat {...overlay} conversationId={conversationId} /> : <CallOverlay {...overlay} />;
}

function WithChat(props: CallOverlayProps & { conversationId: string }) {
  const { conversationId, ...overlay } = props;
  const chat = useCallChat(conversationId);
  // A group's call is left, not ended; its owner and admins may also end it for everyone.
  const group = useSelector(useLateSessionActor('call'), (s) => !!s?.context.group);
  const endForAll = useEndForAll(group ? conversationId : null);
  const noise = useNoiseSuppression();
  const withChat = {
    ...overlay,
    noise,
    ...(chat ? { chat } : {}),
    ...(group ? { group } : {}),
    ...(endForAll ? { onEndForAll: endForAll } : {}),
  };
  return group ? <WithRoom {...withChat} conversationId={conversationId} /> : <CallOverlay {...withChat} />;
}

/** A group's call: its hands and moderation live while the overlay is open. */
function WithRoom(props: CallOverlayProps & { conversationId: string }) {
  const { conversationId, ...overlay } = props;
  return <CallOverlay {...overlay} groupRoom={useCallRoom(conversationId)} />;
}

/** «Завершить для всех» of a group's call: for its owner and admins (the server checks again); null for the others. */
function useEndForAll(conversationId: string | null): (() => void) | null {
  const call = useLateSessionActor('call');
  const me = useSelector(useSessionActor('session'), (s) => s.context.session?.user.id ?? null);
  const role = useChatEntry(conversationId)?.conversation.participants.find((p) => p.user.id === me)?.role;
  return conversationId && (role === 'OWNER' || role === 'ADMIN')
    ? () => call.send({ type: 'call.end', all: true })
    : null;
}

export function CallOverlay(props: CallOverlayProps) {
  if (!props.token || !props.url) return null;
  return <OpenOverlay {...props} token={props.token} url={props.url} />;
}

function OpenOverlay(props: CallOverlayProps & { token: string; url: string }) {
  const Conference = props.conference ?? LazyConference;
  const dialog = useRef<HTMLDivElement>(null);
  const e2ee = props.e2ee ?? null;
  const canEncrypt = props.canEncrypt ?? e2eeSupported();
  // A secret call that cannot be encrypted is not made: the user reads why and ends it.
  const blocked = e2ee ? (!canEncrypt ? CALL_E2EE_UNSUPPORTED : e2ee.error) : null;
  const conference = (removeGuest: ((knockId: string) => void) | null) => (
    <Conference
      onRemoveGuest={removeGuest}
      token={props.token}
      serverUrl={props.url}
      video={props.video}
      audio={props.audio}
      leaveLabel={props.group ? 'Выйти' : 'Завершить'}
      onLeave={props.onEnd}
      onError={props.onFailed}
      chat={props.chat}
      e2ee={e2ee ? { key: e2ee.key, exchange: e2ee.exchange ?? null } : null}
      groupRoom={props.groupRoom ?? null}
      noise={props.noise ?? null}
    />
  );
  useLayoutEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    dialog.current?.focus();
    return () => {
      if (before?.isConnected) before.focus();
    };
  }, []);
  return (
    <div className="call-backdrop">
      <div
        ref={dialog}
        className="call-overlay"
        role="dialog"
        aria-modal="true"
        aria-labelledby="call-overlay-title"
        tabIndex={-1}
        onKeyDown={(e) => trapTab(e, dialog.current)}
      >
        <header className="call-overlay-bar">
          <h2 id="call-overlay-title" className="call-overlay-title">
            {props.calling ? 'Вызов… ждём ответа' : 'Звонок'}
          </h2>
          {props.onEndForAll && (
            <button type="button" className="button call-decline" onClick={props.onEndForAll}>
              Завершить для всех
            </button>
          )}
          <button type="button" className="button call-decline" onClick={props.onEnd}>
            {props.calling ? 'Отменить вызов' : props.group ? 'Выйти из звонка' : 'Завершить звонок'}
          </button>
        </header>
        {e2ee && canEncrypt && !e2ee.error && (
          <p className="call-e2ee" data-testid="call-e2ee">
            <span aria-hidden="true">🔒 </span>
            {CALL_ENCRYPTED}
          </p>
        )}
        <div className="call-overlay-body">
          {blocked ? (
            <p className="call-e2ee-blocked" role="alert">
              {blocked}
            </p>
          ) : e2ee && !e2ee.key && !e2ee.exchange?.ready ? (
            <p className="call-loading" role="status">
              Подключаемся…
            </p>
          ) : (
            <Suspense
              fallback={
                <p className="call-loading" role="status">
                  Подключаемся…
                </p>
              }
            >
              {props.room && props.door && (!e2ee || props.secretDoor) ? (
                <props.door room={props.room} secret={props.secretDoor ?? null}>
                  {(removeGuest) => conference(removeGuest)}
                </props.door>
              ) : (
                conference(null)
              )}
            </Suspense>
          )}
        </div>
      </div>
    </div>
  );
}

/** Keeps Tab inside the modal overlay (wrapping at both ends). */
function trapTab(e: React.KeyboardEvent, root: HTMLElement | null) {
  if (e.key !== 'Tab' || !root) return;
  const focusable = [
    ...root.querySelectorAll<HTMLElement>('button, [href], input, select, textarea, [tabindex]:not([tabindex="-1"])'),
  ].filter((el) => !el.hasAttribute('disabled') && el.getClientRects().length > 0);
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (!first || !last) return;
  const active = document.activeElement;
  if (e.shiftKey && (active === first || active === root)) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && active === last) {
    e.preventDefault();
    first.focus();
  }
}
