// The message pane of the open conversation, from props: header, history (or its placeholders), who is typing,
// the composer, drag-and-drop of files anywhere on the pane, and the lightbox for images.
import { type DragEvent, type ReactNode, Suspense, useEffect, useRef, useState } from 'react';
import type { PublicUser } from '../../contract/entities';
import type { RecorderRef } from '../../machines/composer/recorder/recorder.protocol';
import type { LightboxItem } from '../../machines/conversation/lightbox/lightbox.protocol';
import {
  Composer,
  type ComposerProps,
  type MentionPickerView,
  SendPreviewDialog,
  type SendPreviewView,
  useRecorderPanel,
} from '../composer/index';
import { lazyView } from '../shared/lazy-view';
import { ConversationHeader } from './ConversationHeader';
import { MessageList, type MessageListProps } from './MessageList';
// With the pane, not the lazy lightbox: the fallback below is drawn with it while the lightbox's chunk loads.
import './lightbox.css';
import { PinBar, type PinBarView } from './PinBar';
import { TypingIndicator } from './TypingIndicator';
import type { HeaderView, MessageRow } from './view-model';
import './conversation.css';

export interface ConversationViewProps extends Omit<MessageListProps, 'onReply' | 'onEdit'> {
  status: 'loading' | 'failed' | 'ready';
  header: HeaderView;
  typing: { text: string; dots: number };
  /** The composer's props; its recorder panel is read here from `recorderRef` (the composer's recorder child). */
  composer: Omit<ComposerProps, 'inputRef' | 'recorder'> & { recorderRef?: RecorderRef };
  lightbox: { items: LightboxItem[]; index: number } | null;
  onCloseLightbox(): void;
  /** A group's call that is on: «Идёт звонок» and «Присоединиться» (the calls feature's bar). */
  callBar?: ReactNode;
  onCall(video: boolean): void;
  onReply(row: MessageRow): void;
  onEdit(row: MessageRow): void;
  onRetryLoad(): void;
  onSearch?(): void;
  /** «Перейти к дате» in the header: the search bar at its calendar. */
  onJumpToDate?(): void;
  onScheduled?(): void;
  /** Opens «Информация» from the header. */
  onInfo?(): void;
  /** A secret chat's «Проверить шифрование». */
  onVerify?(): void;
  /** The user blocked the other person of this direct chat: the composer gives way to «Разблокировать». */
  blocked?: { busy: boolean; onUnblock(): void } | null;
  /** The search bar within this conversation, when open. */
  searchBar?: ReactNode;
  /** The latest pinned message (or the one a click goes to next), under the header. */
  pinBar?: PinBarView | null;
  /** Replaces the composer (selection mode's bar). */
  selectionBar?: ReactNode;
  /** Dialogs and toasts of the message actions. */
  overlays?: ReactNode;
  /** A line under the header about this chat (a secret chat this device cannot take part in yet). */
  notice?: ReactNode;
  /** A group's members by id: a sender's name opens their card (the pane shows it). */
  members?: ReadonlyMap<string, PublicUser>;
  /** Who «@» can name in this conversation (a group's other members; none in a direct chat). */
  mentionable?: { id: string; name: string; username: string }[];
  /** Whether «@» offers «все» (`@все`) first: a plaintext group where the user may call everyone. */
  mentionEveryone?: boolean;
  /** The «@» list's actor as values and callbacks. */
  mentionPicker?: MentionPickerView | null;
  /** The send preview's actor as values and callbacks (files wait there for a caption). */
  sendPreview?: SendPreviewView;
}

const hasFiles = (e: DragEvent) => [...e.dataTransfer.types].includes('Files');

/** The lightbox (view, hook and machine) loads apart from the chats page: it is fetched once images are shown. */
export const LazyLightbox = lazyView(() => import('./Lightbox').then((m) => m.Lightbox));

function LightboxLoading() {
  return (
    <div className="lightbox">
      <p className="lightbox-caption" role="status">
        Открываем изображение…
      </p>
    </div>
  );
}

export function ConversationView(props: ConversationViewProps) {
  const { recorderRef, ...composer } = props.composer;
  const recorder = useRecorderPanel(recorderRef);
  // Picked, dropped and pasted files wait in the preview (caption, order) until «Отправить»; without one they go.
  const preview = props.sendPreview;
  // A secret chat's files and voice messages are encrypted on their way out (the outbox's upload, secretChats).
  const attach = preview ? preview.add : props.composer.onAttach;
  const input = useRef<HTMLTextAreaElement | null>(null);
  const [dragging, setDragging] = useState(false);
  const depth = useRef(0);
  const showsImages = props.rows.some((row) => row.type === 'IMAGE');
  useEffect(() => {
    if (showsImages) void LazyLightbox.preload();
  }, [showsImages]);

  const onDragEnter = (e: DragEvent) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    depth.current += 1;
    setDragging(true);
  };
  const onDragLeave = (e: DragEvent) => {
    if (!hasFiles(e)) return;
    depth.current = Math.max(0, depth.current - 1);
    if (depth.current === 0) setDragging(false);
  };
  const onDragOver = (e: DragEvent) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
  };
  const onDrop = (e: DragEvent) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    depth.current = 0;
    setDragging(false);
    const files = [...e.dataTransfer.files];
    if (files.length) attach(files);
  };
  const reply = (row: MessageRow) => {
    props.onReply(row);
    input.current?.focus();
  };
  const edit = (row: MessageRow) => {
    props.onEdit(row);
    input.current?.focus();
  };

  return (
    <section
      className={`conv${dragging ? ' dragging' : ''}`}
      aria-label={`Беседа: ${props.header.title}`}
      onDragEnter={onDragEnter}
      onDragLeave={onDragLeave}
      onDragOver={onDragOver}
      onDrop={onDrop}
    >
      <ConversationHeader
        header={props.header}
        onCall={props.onCall}
        onSearch={props.onSearch}
        onJumpToDate={props.onJumpToDate}
        onScheduled={props.onScheduled}
        onInfo={props.onInfo}
        onVerify={props.onVerify}
      />
      {props.callBar}
      {props.searchBar}
      {props.pinBar && <PinBar {...props.pinBar} />}
      {props.notice}
      <div className="conv-body">
        {props.status === 'loading' ? (
          <p className="conv-note" role="status">
            Загружаем сообщения…
          </p>
        ) : props.status === 'failed' ? (
          <div className="conv-note" role="alert">
            <p>Не удалось загрузить сообщения.</p>
            <button type="button" className="button ghost" onClick={props.onRetryLoad}>
              Повторить
            </button>
          </div>
        ) : props.rows.length === 0 ? (
          <p className="conv-note conv-empty">Сообщения появятся здесь</p>
        ) : (
          <MessageList {...props} onReply={reply} onEdit={edit} />
        )}
      </div>
      <TypingIndicator text={props.typing.text} dots={props.typing.dots} />
      {props.selectionBar ? (
        props.selectionBar
      ) : props.blocked ? (
        <div className="conv-blocked" role="status">
          <span>Вы заблокировали этого пользователя</span>
          <button type="button" className="button" disabled={props.blocked.busy} onClick={props.blocked.onUnblock}>
            Разблокировать
          </button>
        </div>
      ) : (
        <Composer
          {...composer}
          onAttach={attach}
          recorder={recorder}
          inputRef={input}
          mentions={props.mentionable?.length ? props.mentionPicker : null}
        />
      )}
      {dragging && (
        <div className="conv-drop" aria-hidden="true">
          <span>Отпустите файлы, чтобы отправить</span>
        </div>
      )}
      {props.overlays}
      {preview?.open && (
        <SendPreviewDialog
          preview={preview}
          onSend={() => {
            props.composer.onAttach(preview.files, preview.caption);
            preview.sent();
          }}
        />
      )}
      {props.lightbox && (
        <Suspense fallback={<LightboxLoading />}>
          <LazyLightbox items={props.lightbox.items} index={props.lightbox.index} onClose={props.onCloseLightbox} />
        </Suspense>
      )}
    </section>
  );
}
