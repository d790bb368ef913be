// The video conference (docs/behaviour.md §2, §6), loaded lazily: livekit-client and @livekit/components-react live
// only in this chunk, never in the chats page's first bundle. Built from the library's parts with Russian labels:
// grid or focus layout (the library's grid table and pagination), a screen share pinned automatically and
// unpinned when it ends, a control bar by permissions (minimal below 760 px, 1000 with the chat open), a chat
// with an unread badge, device settings saved locally (the library's 'lk-user-choices'), connection toasts.
import '@livekit/components-styles';
import {
  CarouselLayout,
  ChatIcon,
  ConnectionStateToast,
  DisconnectButton,
  FocusLayoutContainer,
  GearIcon,
  GridLayout,
  LayoutContextProvider,
  LeaveIcon,
  LiveKitRoom,
  ParticipantContext,
  ParticipantName,
  type ReceivedChatMessage,
  RoomAudioRenderer,
  StartAudio,
  TrackMutedIndicator,
  TrackRefContext,
  type TrackReferenceOrPlaceholder,
  TrackToggle,
  useChat,
  useCreateLayoutContext,
  useEnsureTrackRef,
  useFocusToggle,
  useLocalParticipant,
  useLocalParticipantPermissions,
  useMediaDeviceSelect,
  useParticipants,
  useParticipantTile,
  usePersistentUserChoices,
  usePinnedTracks,
  useRoomContext,
  useTracks,
  VideoTrack,
} from '@livekit/components-react';
import { type LocalAudioTrack, type Room, RoomEvent, type RoomOptions, Track } from 'livekit-client';
import { createContext, type FormEvent, useContext, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { GUEST_IDENTITY_PREFIX, isGuestIdentity } from '../../contract/guest-rules';
import { CALL_SECRET_TOPIC } from '../../machines/secretChats/secretCall/secretCall.protocol';
import { useMediaQuery } from '../shared/useMediaQuery';
import type { ConversationChat } from './call-chat';
import { dropUnencrypted, type EncryptedRoom, encryptedRoom, followRoomForKey } from './call-e2ee';
import {
  type CallKeyExchange,
  type ConferenceProps,
  chatText,
  type GroupRoomPanel,
  handPlace,
  hidesTimestamp,
  minimalBelowPx,
  type NoiseChoice,
  unreadBadge,
  unreadCount,
  visibleControls,
} from './conference-rules';

type Choices = ReturnType<typeof usePersistentUserChoices>;

/** How a member removes a guest from the call; null where nobody may (a guest's own page). */
const RemoveGuest = createContext<((knockId: string) => void) | null>(null);
/** A group's call's hands and moderation (useCallRoom.ts); null in any other call. */
const GroupRoom = createContext<GroupRoomPanel | null>(null);

const isTrackRef = (
  t: TrackReferenceOrPlaceholder | undefined,
): t is TrackReferenceOrPlaceholder & { publication: NonNullable<TrackReferenceOrPlaceholder['publication']> } =>
  !!t?.publication;
const sameTrack = (a: TrackReferenceOrPlaceholder | undefined, b: TrackReferenceOrPlaceholder | undefined) =>
  !!a &&
  !!b &&
  a.participant.identity === b.participant.identity &&
  a.source === b.source &&
  (a.publication?.trackSid ?? null) === (b.publication?.trackSid ?? null);
const screenShareSupported = () =>
  typeof navigator !== 'undefined' && typeof navigator.mediaDevices?.getDisplayMedia === 'function';

export default function Conference(props: ConferenceProps) {
  const choices = usePersistentUserChoices();
  const connected = useRef(false);
  // Device ids as chosen last time, read once ('default' = let the browser pick, no constraint); a device
  // changed during the call is switched by the settings panel itself.
  const [options] = useState<RoomOptions>(() => {
    const pick = (id: string) => (id && id !== 'default' ? { deviceId: id } : {});
    return {
      adaptiveStream: true,
      dynacast: true,
      // The embedded media server forwards VP8 (and simulcast layers of it) and opus without RED.
      publishDefaults: { videoCodec: 'vp8', red: false },
      videoCaptureDefaults: pick(choices.userChoices.videoDeviceId),
      audioCaptureDefaults: pick(choices.userChoices.audioDeviceId),
    };
  });
  const secret = useEncryptedRoom(options, props.e2ee, props.onError);
  return (
    <LiveKitRoom
      token={props.token}
      serverUrl={props.serverUrl}
      // A secret chat's call connects only with its key set and encryption on: never a frame in the clear.
      connect={!secret.room || secret.keyed}
      room={secret.room}
      data-e2ee={secret.encrypted ? 'on' : undefined}
      // The epoch of the newest call key set (tests watch a call re-key after a guest left).
      data-e2ee-epoch={props.e2ee?.key?.epoch}
      video={props.video}
      audio={props.audio}
      options={secret.room ? undefined : options}
      data-lk-theme="default"
      className="conference"
      onConnected={() => {
        connected.current = true;
      }}
      // Only a room that was connected counts as left (a room replaced before connecting also reports this).
      onDisconnected={() => {
        if (connected.current) props.onLeave();
      }}
      onError={(e) => props.onError(e.message, e.name)}
    >
      {secret.dropped.length > 0 && (
        <div className="call-e2ee-dropped" role="alert" data-testid="call-e2ee-dropped">
          {secret.dropped.map((notice) => (
            <p key={notice}>{notice}</p>
          ))}
        </div>
      )}
      {props.e2ee?.exchange && <KeyExchange exchange={props.e2ee.exchange} />}
      {props.groupRoom && <MuteWhenAsked times={props.groupRoom.mutedTimes} />}
      <RemoveGuest.Provider value={props.onRemoveGuest ?? null}>
        <GroupRoom.Provider value={props.groupRoom ?? null}>
          <ConferenceBody
            leaveLabel={props.leaveLabel}
            choices={choices}
            chat={props.chat ?? null}
            noise={props.noise ?? null}
          />
        </GroupRoom.Provider>
      </RemoveGuest.Provider>
    </LiveKitRoom>
  );
}

/** An owner or admin turned my microphone off (each time `times` grows): off here too; I may turn it on again. */
function MuteWhenAsked({ times }: { times: number }) {
  const room = useRoomContext();
  const seen = useRef(times);
  useEffect(() => {
    if (times === seen.current) return;
    seen.current = times;
    void room.localParticipant.setMicrophoneEnabled(false);
  }, [room, times]);
  return null;
}

/** Tells when a guest's participant leaves the room (a secret chat's call then re-keys), and who re-keys. */
/**
 * The call secret's exchange over the room (docs/secret-chats.md "Who holds the call's key"): who is in, who joins and
 * who leaves, and its messages on the data channel, both ways.
 */
function KeyExchange({ exchange }: { exchange: CallKeyExchange }) {
  const room = useRoomContext();
  const x = useRef(exchange);
  x.current = exchange;
  useEffect(() => followRoomForKey(room, (event) => x.current.tell(event)), [room]);
  const onSend = exchange.onSend;
  useEffect(
    () =>
      onSend(({ payload, to }) => {
        if (room.state !== 'connected') return;
        void room.localParticipant
          .publishData(payload.slice(), {
            reliable: true,
            topic: CALL_SECRET_TOPIC,
            destinationIdentities: to ?? undefined,
          })
          .catch(() => undefined);
      }),
    [room, onSend],
  );
  return null;
}

/**
 * For a secret chat's call: a room with LiveKit's end-to-end encryption (call-e2ee.ts) and its e2ee worker, each
 * newer epoch's key set as it arrives: `keyed` once the first key is set and encryption is on (it may connect),
 * `encrypted` once the connected room reports its own media encrypted (Room.isE2EEEnabled).
 */
function useEncryptedRoom(
  options: RoomOptions,
  e2ee: ConferenceProps['e2ee'],
  onError: (message: string) => void,
): { room?: Room; keyed: boolean; encrypted: boolean; dropped: string[] } {
  const fail = useRef(onError);
  fail.current = onError;
  const [secret] = useState<EncryptedRoom | null>(() => (e2ee ? encryptedRoom(options) : null));
  const [keyed, setKeyed] = useState(false);
  const [encrypted, setEncrypted] = useState(false);
  const [dropped, setDropped] = useState<string[]>([]);
  useEffect(() => () => secret?.close(), [secret]);
  // A remote track that comes unencrypted is never played: unsubscribed, and named in the call.
  useEffect(
    () => (secret ? dropUnencrypted(secret.room, (notice) => setDropped((d) => [...d, notice])) : undefined),
    [secret],
  );
  useEffect(() => {
    if (!secret) return;
    const room = secret.room;
    const status = () => setEncrypted(room.isE2EEEnabled);
    room.on(RoomEvent.ParticipantEncryptionStatusChanged, status);
    return () => {
      room.off(RoomEvent.ParticipantEncryptionStatusChanged, status);
    };
  }, [secret]);
  const key = e2ee?.key ?? null;
  // A member's call connects once the group's key is known, with a key of the page's own until the call's arrives.
  const placeholder = !key && !!e2ee?.exchange?.ready;
  useEffect(() => {
    if (!secret || !(key || placeholder)) return;
    let live = true;
    void (key ? secret.keys.setEpochKey(key.epoch, key.key) : secret.keys.setPlaceholder())
      .then(() => secret.room.setE2EEEnabled(true))
      .then(
        () => {
          // The local participant publishes encrypted tracks from now on (the room itself says so once connected).
          if (live) setKeyed(secret.room.localParticipant.isE2EEEnabled);
        },
        (e: Error) => fail.current(e.message),
      );
    return () => {
      live = false;
    };
  }, [secret, key, placeholder]);
  return secret ? { room: secret.room, keyed, encrypted, dropped } : { keyed: false, encrypted: false, dropped: [] };
}

function ConferenceBody({
  leaveLabel,
  choices,
  chat,
  noise,
}: {
  leaveLabel: string;
  choices: Choices;
  chat: ConversationChat | null;
  noise: NoiseChoice | null;
}) {
  const [chatOpen, setChatOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  // «Участники» and the chat share the side: opening one closes the other.
  const [peopleOpen, setPeopleOpen] = useState(false);
  const layout = useCreateLayoutContext();
  const tracks = useTracks(
    [
      { source: Track.Source.Camera, withPlaceholder: true },
      { source: Track.Source.ScreenShare, withPlaceholder: false },
    ],
    { updateOnlyOn: [RoomEvent.ActiveSpeakersChanged], onlySubscribed: false },
  );
  const focusTrack = usePinnedTracks(layout)?.[0];
  const carouselTracks = tracks.filter((t) => !sameTrack(t, focusTrack));
  const screenShares = tracks.filter((t) => isTrackRef(t) && t.source === Track.Source.ScreenShare);
  const autoPinned = useRef<TrackReferenceOrPlaceholder | null>(null);
  const shareKey = screenShares.map((t) => `${t.publication?.trackSid}_${t.publication?.isSubscribed}`).join();

  // A screen share is pinned as soon as it arrives, and the pin is cleared when that share ends.
  // biome-ignore lint/correctness/useExhaustiveDependencies: keyed by the shares' ids and subscription state
  useEffect(() => {
    const live = screenShares.find((t) => t.publication?.isSubscribed);
    if (live && !autoPinned.current) {
      layout.pin.dispatch?.({ msg: 'set_pin', trackReference: live });
      autoPinned.current = live;
    } else if (
      autoPinned.current &&
      !screenShares.some((t) => t.publication?.trackSid === autoPinned.current?.publication?.trackSid)
    ) {
      layout.pin.dispatch?.({ msg: 'clear_pin' });
      autoPinned.current = null;
    }
  }, [shareKey]);

  // A conversation's call chats in the conversation itself; a /calls room over the room's data channel.
  const room = useChat();
  const chatMessages: ChatLine[] = chat ? chat.lines : room.chatMessages;
  const send = chat ? async (text: string) => chat.onSend(text) : room.send;
  const isSending = chat ? false : room.isSending;
  // The conversation's earlier history is not news: only lines from this call on count as unread.
  const [since] = useState(() => Date.now() - CHAT_CLOCK_SLACK_MS);
  const fresh = chat ? chatMessages.filter((m) => m.timestamp >= since) : chatMessages;
  const [readCount, setReadCount] = useState(0);
  useEffect(() => {
    if (chatOpen) setReadCount(fresh.length);
  }, [chatOpen, fresh.length]);
  const unread = unreadCount(
    fresh.map((m) => ({ fromLocal: !!m.from?.isLocal })),
    readCount,
    chatOpen,
  );

  return (
    <LayoutContextProvider value={layout}>
      <div className="lk-video-conference" data-noise-suppression={noise?.running ? 'on' : undefined}>
        <div className="lk-video-conference-inner">
          {!focusTrack ? (
            <div className="lk-grid-layout-wrapper">
              <GridLayout tracks={tracks}>
                <CallTile />
              </GridLayout>
            </div>
          ) : (
            <div className="lk-focus-layout-wrapper">
              <FocusLayoutContainer>
                <CarouselLayout tracks={carouselTracks}>
                  <CallTile />
                </CarouselLayout>
                <TrackRefContext.Provider value={focusTrack}>
                  <CallTile />
                </TrackRefContext.Provider>
              </FocusLayoutContainer>
            </div>
          )}
          <CallControls
            leaveLabel={leaveLabel}
            choices={choices}
            chatOpen={chatOpen}
            onToggleChat={() => {
              setPeopleOpen(false);
              setChatOpen((v) => !v);
            }}
            peopleOpen={peopleOpen}
            onTogglePeople={() => {
              setChatOpen(false);
              setPeopleOpen((v) => !v);
            }}
            unread={unread}
            settingsOpen={settingsOpen}
            onToggleSettings={() => setSettingsOpen((v) => !v)}
          />
        </div>
        {chatOpen && (
          <CallChat messages={chatMessages} send={send} isSending={isSending} onClose={() => setChatOpen(false)} />
        )}
        {peopleOpen && <CallPeople onClose={() => setPeopleOpen(false)} />}
        <GroupRoomNotice />
        {settingsOpen && <DeviceSettings choices={choices} noise={noise} onClose={() => setSettingsOpen(false)} />}
        <NoiseSuppression on={noise?.on ?? true} onRunning={noise?.report} />
        <RoomAudioRenderer />
        <StartAudio label="Включить звук" />
        <ConnectionStateToast />
      </div>
    </LayoutContextProvider>
  );
}

/** One participant's camera or screen share, with name, muted microphone and a labelled pin button. */
function CallTile() {
  const trackRef = useEnsureTrackRef();
  const { elementProps } = useParticipantTile<HTMLDivElement>({ trackRef, htmlProps: {} });
  const { mergedProps, inFocus } = useFocusToggle({ trackRef, props: {} });
  const screen = trackRef.source === Track.Source.ScreenShare;
  const name = trackRef.participant.name || trackRef.participant.identity;
  // A guest (no account, let in through a guest link) is marked so, and members may remove them.
  const guest = isGuestIdentity(trackRef.participant.identity);
  const removeGuest = useContext(RemoveGuest);
  const hand = handPlace(useContext(GroupRoom)?.hands ?? [], trackRef.participant.identity);
  return (
    <div {...elementProps} style={{ position: 'relative' }} data-guest={guest ? 'true' : undefined}>
      <TrackRefContext.Provider value={trackRef}>
        <ParticipantContext.Provider value={trackRef.participant}>
          {isTrackRef(trackRef) && <VideoTrack trackRef={trackRef} />}
          <div className="lk-participant-placeholder" aria-hidden="true">
            <span className="call-tile-initial">{name.slice(0, 1).toUpperCase()}</span>
          </div>
          <div className="lk-participant-metadata">
            <div className="lk-participant-metadata-item">
              {!screen && (
                <TrackMutedIndicator
                  trackRef={{ participant: trackRef.participant, source: Track.Source.Microphone }}
                  show="muted"
                />
              )}
              <ParticipantName>{screen ? ': экран' : null}</ParticipantName>
              {guest && <span className="call-guest-mark">гость</span>}
              {hand && !screen && <HandMark place={hand} />}
            </div>
            {guest && removeGuest && !screen && (
              <button
                type="button"
                className="lk-button call-guest-remove"
                aria-label={`Удалить из звонка: ${name}`}
                onClick={() => removeGuest(trackRef.participant.identity.slice(GUEST_IDENTITY_PREFIX.length))}
              >
                Удалить из звонка
              </button>
            )}
          </div>
          <button
            type="button"
            {...mergedProps}
            aria-label={inFocus ? `Открепить: ${name}` : `Закрепить: ${name}`}
            aria-pressed={inFocus}
          >
            <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
              <path
                d={inFocus ? 'M4 4l8 8M12 4l-8 8' : 'M2 6V2h4M14 6V2h-4M2 10v4h4M14 10v4h-4'}
                fill="none"
                stroke="currentColor"
                strokeWidth="1.6"
              />
            </svg>
          </button>
        </ParticipantContext.Provider>
      </TrackRefContext.Provider>
    </div>
  );
}

function CallControls(props: {
  leaveLabel: string;
  choices: Choices;
  chatOpen: boolean;
  onToggleChat: () => void;
  peopleOpen: boolean;
  onTogglePeople: () => void;
  unread: number;
  settingsOpen: boolean;
  onToggleSettings: () => void;
}) {
  const count = useParticipants().length;
  const permissions = useLocalParticipantPermissions();
  const visible = visibleControls(permissions, { screenShareSupported: screenShareSupported() });
  // Narrower than minimalBelowPx (max-width is inclusive, so just below it).
  const minimal = useMediaQuery(`(max-width: ${minimalBelowPx(props.chatOpen) - 0.02}px)`);
  const [sharing, setSharing] = useState(false);
  const badge = unreadBadge(props.unread);
  const text = (label: string) => (minimal ? null : <span>{label}</span>);
  const { saveAudioInputEnabled, saveVideoInputEnabled } = props.choices;
  const room = useContext(GroupRoom);
  return (
    <div
      className="lk-control-bar call-controls"
      role="toolbar"
      aria-label="Управление звонком"
      data-minimal={minimal || undefined}
    >
      {visible.microphone && (
        <TrackToggle
          source={Track.Source.Microphone}
          aria-label="Микрофон"
          onChange={(enabled, byUser) => byUser && saveAudioInputEnabled(enabled)}
        >
          {text('Микрофон')}
        </TrackToggle>
      )}
      {visible.camera && (
        <TrackToggle
          source={Track.Source.Camera}
          aria-label="Камера"
          onChange={(enabled, byUser) => byUser && saveVideoInputEnabled(enabled)}
        >
          {text('Камера')}
        </TrackToggle>
      )}
      {visible.screenShare && (
        <TrackToggle
          source={Track.Source.ScreenShare}
          captureOptions={{ audio: true, selfBrowserSurface: 'include' }}
          aria-label={sharing ? 'Остановить показ экрана' : 'Показать экран'}
          onChange={(enabled) => setSharing(enabled)}
        >
          {text(sharing ? 'Остановить показ' : 'Показать экран')}
        </TrackToggle>
      )}
      {room && (
        <button
          type="button"
          className="lk-button call-hand-toggle"
          aria-pressed={room.raised}
          aria-label={room.raised ? 'Опустить руку' : 'Поднять руку'}
          disabled={room.busy}
          onClick={room.raised ? room.onLowerHand : room.onRaiseHand}
        >
          <span aria-hidden="true">✋</span>
          {text(room.raised ? 'Опустить руку' : 'Поднять руку')}
        </button>
      )}
      {visible.chat && (
        <button
          type="button"
          className="lk-button call-chat-toggle"
          aria-pressed={props.chatOpen}
          aria-label={badge ? `Чат, непрочитанных: ${badge}` : 'Чат'}
          onClick={props.onToggleChat}
        >
          <ChatIcon aria-hidden="true" />
          {text('Чат')}
          {badge && (
            <span className="call-unread" data-testid="call-unread" aria-hidden="true">
              {badge}
            </span>
          )}
        </button>
      )}
      <button
        type="button"
        className="lk-button"
        aria-pressed={props.peopleOpen}
        aria-label={`Участники: ${count}`}
        onClick={props.onTogglePeople}
      >
        <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
          <circle cx="6" cy="5" r="2.5" fill="none" stroke="currentColor" strokeWidth="1.5" />
          <path d="M1.5 14c0-2.6 2-4.5 4.5-4.5s4.5 1.9 4.5 4.5" fill="none" stroke="currentColor" strokeWidth="1.5" />
          <path
            d="M10.5 3a2.5 2.5 0 010 5M12 9.8c1.5.6 2.5 2.1 2.5 4.2"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.5"
          />
        </svg>
        {text(`Участники: ${count}`)}
      </button>
      {visible.settings && (
        <button
          type="button"
          className="lk-button"
          aria-pressed={props.settingsOpen}
          aria-label="Настройки"
          onClick={props.onToggleSettings}
        >
          <GearIcon aria-hidden="true" />
          {text('Настройки')}
        </button>
      )}
      <DisconnectButton aria-label={props.leaveLabel}>
        <LeaveIcon aria-hidden="true" />
        {text(props.leaveLabel)}
      </DisconnectButton>
    </div>
  );
}

/**
 * «Участники»: everyone in the call, oneself first, with their microphone and camera, who is speaking, a guest marked
 * «гость» (docs/behaviour.md §10.40) with «Удалить из звонка» for the members who may. In a group's call: raised hands
 * in the order they were raised, and for its owner and admins «Выключить микрофон» and «Удалить из звонка» of the others.
 */
function CallPeople({ onClose }: { onClose: () => void }) {
  const participants = useParticipants();
  const removeGuest = useContext(RemoveGuest);
  const room = useContext(GroupRoom);
  const nameOf = (identity: string) => {
    const p = participants.find((x) => x.identity === identity);
    return p ? p.name || p.identity : null;
  };
  const raised = (room?.hands ?? []).map((id) => ({ id, name: nameOf(id) })).filter((h) => h.name !== null);
  return (
    <aside className="lk-chat call-people" aria-label="Участники звонка">
      <div className="lk-chat-header">
        <h3>Участники</h3>
        <button
          type="button"
          className="lk-button call-chat-close"
          aria-label="Закрыть список участников"
          onClick={onClose}
        >
          ×
        </button>
      </div>
      {raised.length > 0 && (
        <section className="call-hands" aria-label="Поднятые руки">
          <h4>Поднятые руки</h4>
          <ol className="call-hands-list">
            {raised.map((h) => (
              <li key={h.id}>{h.name}</li>
            ))}
          </ol>
        </section>
      )}
      <ul className="lk-list call-people-list">
        {participants.map((p) => {
          const name = p.name || p.identity;
          const guest = isGuestIdentity(p.identity);
          const hand = handPlace(room?.hands ?? [], p.identity);
          const moderate = !!room?.canModerate && !p.isLocal && !guest;
          return (
            <li
              key={p.identity}
              className="call-person"
              data-guest={guest ? 'true' : undefined}
              data-speaking={p.isSpeaking ? 'true' : undefined}
            >
              <span className="call-person-name">
                {name}
                {p.isLocal && ' (вы)'}
              </span>
              {guest && <span className="call-guest-mark">гость</span>}
              {hand && <HandMark place={hand} />}
              {p.isSpeaking && <span className="call-person-speaking">говорит</span>}
              <span className="call-person-state">
                {p.isMicrophoneEnabled ? 'микрофон включён' : 'микрофон выключен'}
                {', '}
                {p.isCameraEnabled ? 'камера включена' : 'камера выключена'}
              </span>
              {guest && removeGuest && (
                <button
                  type="button"
                  className="lk-button"
                  aria-label={`Удалить из звонка: ${name}`}
                  onClick={() => removeGuest(p.identity.slice(GUEST_IDENTITY_PREFIX.length))}
                >
                  Удалить
                </button>
              )}
              {moderate && p.isMicrophoneEnabled && (
                <button
                  type="button"
                  className="lk-button"
                  aria-label={`Выключить микрофон: ${name}`}
                  disabled={room.busy}
                  onClick={() => room.onMute(p.identity)}
                >
                  Выключить микрофон
                </button>
              )}
              {moderate && (
                <button
                  type="button"
                  className="lk-button"
                  aria-label={`Удалить из звонка: ${name}`}
                  disabled={room.busy}
                  onClick={() => room.onRemove(p.identity)}
                >
                  Удалить из звонка
                </button>
              )}
            </li>
          );
        })}
      </ul>
    </aside>
  );
}

/** A raised hand and its place in the order («✋ 2»). */
function HandMark({ place }: { place: number }) {
  return (
    <span className="call-hand" role="img" aria-label={`Поднята рука, ${place}-я по очереди`}>
      ✋ {place}
    </span>
  );
}

/** Why a hand or moderation request failed, or that an owner or admin turned my microphone off. */
function GroupRoomNotice() {
  const room = useContext(GroupRoom);
  if (!room?.notice) return null;
  return (
    <div className="call-room-notice" role="status">
      <span>{room.notice}</span>
      <button type="button" className="lk-button" aria-label="Закрыть уведомление" onClick={room.onDismissNotice}>
        ×
      </button>
    </div>
  );
}

/** Server and browser clocks differ a little: a line this much older than the call's start still counts as new. */
const CHAT_CLOCK_SLACK_MS = 2_000;

/** A line of the chat panel: LiveKit's received message, or a conversation's message (call-chat.ts). */
type ChatLine = Pick<ReceivedChatMessage, 'timestamp' | 'message'> & {
  id?: string;
  from?: { identity: string; name?: string; isLocal: boolean };
};

function CallChat(props: {
  messages: ChatLine[];
  send: (text: string) => Promise<unknown>;
  isSending: boolean;
  onClose: () => void;
}) {
  const [draft, setDraft] = useState('');
  const list = useRef<HTMLUListElement>(null);
  const input = useRef<HTMLInputElement>(null);
  useLayoutEffect(() => {
    input.current?.focus();
  }, []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll when a message arrives
  useEffect(() => {
    list.current?.scrollTo({ top: list.current.scrollHeight });
  }, [props.messages.length]);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const text = chatText(draft);
    if (!text) return;
    await props.send(text);
    setDraft('');
  };
  const key = (m: ChatLine) => ({ from: m.from?.identity ?? '', timestamp: m.timestamp });
  return (
    <aside className="lk-chat call-chat" aria-label="Чат звонка">
      <div className="lk-chat-header">
        <h3>Чат</h3>
        <button type="button" className="lk-button call-chat-close" aria-label="Закрыть чат" onClick={props.onClose}>
          ×
        </button>
      </div>
      <ul className="lk-list lk-chat-messages" ref={list} aria-live="polite">
        {props.messages.map((m, i) => {
          const prev = props.messages[i - 1];
          const sameSender = !!prev && prev.from?.identity === m.from?.identity;
          const hideTime = hidesTimestamp(prev && key(prev), key(m));
          return (
            <li key={m.id ?? i} className="lk-chat-entry" data-lk-message-origin={m.from?.isLocal ? 'local' : 'remote'}>
              {(!sameSender || !hideTime) && (
                <span className="lk-meta-data">
                  {!sameSender && (
                    <strong className="lk-participant-name">{m.from?.name || m.from?.identity || 'Участник'}</strong>
                  )}
                  {!hideTime && (
                    <time className="lk-timestamp" dateTime={new Date(m.timestamp).toISOString()}>
                      {new Date(m.timestamp).toLocaleTimeString('ru-RU', { hour: '2-digit', minute: '2-digit' })}
                    </time>
                  )}
                </span>
              )}
              <span className="lk-message-body">{m.message}</span>
            </li>
          );
        })}
      </ul>
      <form className="lk-chat-form" onSubmit={submit}>
        <input
          ref={input}
          className="lk-form-control lk-chat-form-input"
          aria-label="Сообщение в чат звонка"
          placeholder="Напишите сообщение..."
          value={draft}
          disabled={props.isSending}
          onChange={(e) => setDraft(e.target.value)}
          // Keys typed here are the chat's, not the page's shortcuts.
          onKeyDown={(e) => e.stopPropagation()}
        />
        <button type="submit" className="lk-button lk-chat-form-button" disabled={props.isSending}>
          Отправить
        </button>
      </form>
    </aside>
  );
}

function DeviceSelect({
  kind,
  label,
  onChosen,
}: {
  kind: MediaDeviceKind;
  label: string;
  onChosen?: (id: string) => void;
}) {
  const id = useId();
  const { devices, activeDeviceId, setActiveMediaDevice } = useMediaDeviceSelect({ kind });
  if (devices.length === 0) return null;
  return (
    <label className="call-device" htmlFor={id}>
      <span>{label}</span>
      <select
        id={id}
        value={activeDeviceId}
        onChange={(e) => {
          void setActiveMediaDevice(e.target.value);
          onChosen?.(e.target.value);
        }}
      >
        {devices.map((d, i) => (
          <option key={d.deviceId || i} value={d.deviceId}>
            {d.label || `${label} ${i + 1}`}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * Runs my microphone through RNNoise while `on` (noise-suppression.ts, loaded the first time it is needed); a browser
 * that cannot (no AudioWorklet) sends the microphone as it is.
 */
function NoiseSuppression({ on, onRunning }: { on: boolean; onRunning?: (running: boolean) => void }) {
  const { microphoneTrack } = useLocalParticipant();
  const track = microphoneTrack?.track as LocalAudioTrack | undefined;
  const report = useRef(onRunning);
  report.current = onRunning;
  useEffect(() => {
    if (!track) return;
    let live = true;
    const running = () => track.getProcessor()?.name === 'rnnoise';
    const told = () => {
      if (live) report.current?.(running());
    };
    if (on && !running()) {
      void import('./noise-suppression')
        .then((m) => (live ? track.setProcessor(m.noiseSuppressor()) : undefined))
        .then(told, told);
    } else if (!on && running()) {
      void track.stopProcessor().then(told, told);
    } else told();
    return () => {
      live = false;
    };
  }, [track, on]);
  return null;
}

function DeviceSettings({
  choices,
  noise,
  onClose,
}: {
  choices: Choices;
  noise: NoiseChoice | null;
  onClose: () => void;
}) {
  return (
    <section className="lk-settings-menu-modal call-settings" aria-label="Настройки устройств">
      <div className="call-settings-head">
        <h3>Настройки</h3>
        <button type="button" className="lk-button" onClick={onClose}>
          Закрыть
        </button>
      </div>
      <DeviceSelect kind="audioinput" label="Микрофон" onChosen={choices.saveAudioInputDeviceId} />
      <DeviceSelect kind="videoinput" label="Камера" onChosen={choices.saveVideoInputDeviceId} />
      <DeviceSelect kind="audiooutput" label="Динамики" />
      {noise && (
        <label className="call-device call-noise">
          <input
            type="checkbox"
            role="switch"
            aria-checked={noise.on}
            checked={noise.on}
            onChange={(e) => noise.choose(e.target.checked)}
          />
          <span>Шумоподавление</span>
        </label>
      )}
    </section>
  );
}
