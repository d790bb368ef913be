// The call view's rules as plain functions (docs/behaviour.md §2, §6, §9), free of livekit imports so they stay out of
// the first bundle and are testable without a media stack.
import type { SecretCallRoomEvent } from '../../machines/secretChats/secretCall/secretCall.protocol';
import type { ConversationChat } from './call-chat';

/** What the conference view needs; the lazy chunk (Conference.tsx) implements it. */
/**
 * «Шумоподавление» as the call actor keeps it (useNoiseSuppression.ts): the choice, whether the microphone goes through
 * the suppressor now, and how the view tells both.
 */
export interface NoiseChoice {
  on: boolean;
  running: boolean;
  choose: (on: boolean) => void;
  report: (running: boolean) => void;
}

export interface ConferenceProps {
  token: string;
  serverUrl: string;
  /** Publish the camera / microphone on joining. */
  video: boolean;
  audio: boolean;
  /** Text of the leave button. */
  leaveLabel: string;
  /** «Шумоподавление» in «Настройки»; absent (a guest's page): on, without the switch. */
  noise?: NoiseChoice | null;
  /** The room disconnected after having connected (leave button, or the server closed it). */
  onLeave: () => void;
  /** The room could not connect; the library's message (e.g. 'no livekit url provided'). */
  /** The failure's message and the error's name (a media error is told by its name, in Russian). */
  onError: (message: string, name?: string) => void;
  /**
   * A conversation's call: its chat panel is the conversation (messages sent through the outbox), not the
   * room's data channel. Absent for /calls rooms, which keep LiveKit's own chat.
   */
  chat?: ConversationChat | null;
  /**
   * A secret chat's call: LiveKit's end-to-end encryption with the MLS group's call key (docs/secret-chats.md
   * "Calls"). The view connects only once a key is set and encryption is on, and takes each newer key as it comes.
   */
  e2ee?: CallEncryption | null;
  /**
   * A plain call's members may remove a guest (docs/behaviour.md §10.40): each guest's tile, marked «гость», then
   * offers «Удалить из звонка». Absent on a guest's own page.
   */
  onRemoveGuest?: ((knockId: string) => void) | null;
  /** A group's call: raised hands and, for its owner and admins, moderation (useCallRoom.ts); absent elsewhere. */
  groupRoom?: GroupRoomPanel | null;
}

/** What the people panel of a group's call shows and does (docs/calls.md "Group calls"). */
export interface GroupRoomPanel {
  /** Raised hands, user ids (media identities) in the order they were raised. */
  hands: string[];
  /** My hand is up. */
  raised: boolean;
  /** The group's owner or an admin: «Выключить микрофон» and «Удалить из звонка» for the others. */
  canModerate: boolean;
  /** A request under way. */
  busy: boolean;
  /** Why a request failed, or that my microphone was turned off. */
  notice: string | null;
  /** Grows each time an owner or admin turns my microphone off: the conference turns it off then. */
  mutedTimes: number;
  onRaiseHand: () => void;
  onLowerHand: () => void;
  onMute: (userId: string) => void;
  onRemove: (userId: string) => void;
  onDismissNotice: () => void;
}

/** «✋ 2»: a raised hand's place in the order, 1-based; null when the hand is down. */
export function handPlace(hands: readonly string[], identity: string): number | null {
  const i = hands.indexOf(identity);
  return i < 0 ? null : i + 1;
}

/** Said over an encrypted call: a secret chat's, and a guest's page in one. */
export const CALL_ENCRYPTED = 'Звонок защищён сквозным шифрованием';

/** The call key of the group's newest epoch this device derived; null while the first one is on its way. */
export interface CallEncryption {
  key: { epoch: number; key: Uint8Array } | null;
  /** A member's call: the call secret's exchange (absent on a guest's page, whose key comes sealed through its door). */
  exchange?: CallKeyExchange | null;
}

/**
 * The call secret's exchange as the conference drives it (docs/secret-chats.md "Who holds the call's key"): the room's
 * events go to it, and what it sends goes on the room's data channel (topic CALL_SECRET_TOPIC).
 */
export interface CallKeyExchange {
  /** The group's call key is known: the room may connect, with a key of the page's own until the call's arrives. */
  ready: boolean;
  tell(event: SecretCallRoomEvent): void;
  /** Each message to send; returns the unsubscribe. */
  onSend(listener: (message: { payload: Uint8Array; to: string[] | null }) => void): () => void;
}

/**
 * Whether this browser can encrypt media frames (what livekit-client's isE2EESupported checks: encoded insertable
 * streams, or RTCRtpScriptTransform), told without loading livekit.
 */
export function e2eeSupported(win: unknown = typeof window === 'undefined' ? undefined : window): boolean {
  const w = win as {
    RTCRtpScriptTransform?: unknown;
    RTCRtpSender?: { prototype: { createEncodedStreams?: unknown } };
  };
  if (!w) return false;
  return (
    typeof w.RTCRtpScriptTransform !== 'undefined' ||
    typeof w.RTCRtpSender?.prototype.createEncodedStreams !== 'undefined'
  );
}

/** The local participant's permissions as LiveKit reports them (ParticipantPermission). */
export interface PublishPermissions {
  canPublish: boolean;
  canPublishData: boolean;
  /** TrackSource numbers allowed; empty = every source. */
  canPublishSources: number[];
}

/** livekit's protocol TrackSource numbers. */
export const TRACK_SOURCE = { camera: 1, microphone: 2, screenShare: 3 } as const;

export interface VisibleControls {
  microphone: boolean;
  camera: boolean;
  screenShare: boolean;
  chat: boolean;
  settings: boolean;
  leave: boolean;
}

/**
 * docs/behaviour.md §6: microphone, camera and screen share only when publishing is allowed and the allowed sources are
 * empty or include that source; chat needs data publishing; with no permissions known all of these are hidden;
 * screen share also needs browser support. Settings (device choice) go with the microphone or camera.
 */
export function visibleControls(
  permissions: PublishPermissions | undefined,
  env: { screenShareSupported: boolean },
): VisibleControls {
  if (!permissions)
    return { microphone: false, camera: false, screenShare: false, chat: false, settings: false, leave: true };
  const may = (source: number) =>
    permissions.canPublish &&
    (permissions.canPublishSources.length === 0 || permissions.canPublishSources.includes(source));
  const microphone = may(TRACK_SOURCE.microphone);
  const camera = may(TRACK_SOURCE.camera);
  return {
    microphone,
    camera,
    screenShare: may(TRACK_SOURCE.screenShare) && env.screenShareSupported,
    chat: permissions.canPublishData,
    settings: microphone || camera,
    leave: true,
  };
}

/** The chat button's badge: nothing at 0, the count up to 9, '9+' from 10. */
export function unreadBadge(count: number): string | null {
  if (count <= 0) return null;
  return count >= 10 ? '9+' : String(count);
}

/** Messages from others that arrived after the chat was last open. */
export function unreadCount(messages: { fromLocal: boolean }[], readCount: number, chatOpen: boolean): number {
  if (chatOpen) return 0;
  return messages.slice(readCount).filter((m) => !m.fromLocal).length;
}

/** docs/behaviour.md §9: the minimal (icon-only) control bar below 760 px of width, below 1000 px with the chat open. */
export const minimalBelowPx = (chatOpen: boolean) => (chatOpen ? 1000 : 760);
export const isMinimalControlBar = (width: number, chatOpen: boolean) => width < minimalBelowPx(chatOpen);

/** docs/behaviour.md §2: a call-chat message within 60 s of the previous one from the same sender hides its time. */
export function hidesTimestamp(
  prev: { from: string; timestamp: number } | undefined,
  msg: { from: string; timestamp: number },
): boolean {
  return !!prev && prev.from === msg.from && msg.timestamp - prev.timestamp < 60_000;
}

/** Trimmed text, or null for an empty or whitespace-only message (docs/behaviour.md §5: not sent). */
export const chatText = (raw: string): string | null => raw.trim() || null;
