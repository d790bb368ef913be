// The composer (docs/behaviour.md §2): 'Напишите сообщение...', Enter sends (Shift+Enter is a new line), 'Прикрепить'
// picks files, the reply banner 'Ответ на:' with its close button, and the upload progress bar. While an own message is
// edited the banner is «Редактирование» (EditBanner): Enter saves, Escape cancels; ↑ in an empty composer edits the
// last own message.
import {
  type ChangeEvent,
  type ClipboardEvent,
  type FormEvent,
  type KeyboardEvent,
  type Ref,
  useLayoutEffect,
  useRef,
  useState,
} from 'react';
import { LIMITS } from '../../contract/limits';
import { LazyEmojiPicker } from '../shared/lazy-emoji-picker';
import { lazyView } from '../shared/lazy-view';
import type { EditBannerProps } from './EditBanner';
import { type Edited, FORMAT_BUTTONS, type FormatKey, formatKeyOf, linkSelection, wrapSelection } from './format-keys';
import type { MentionPickerView } from './useMentionPicker';
import { LazyVoiceRecorder } from './voice/LazyVoiceRecorder';
import { MicButton } from './voice/MicButton';
import type { RecorderPanel } from './voice/useRecorderPanel';
import './composer.css';
// The recorder's panel loads on demand; its styles come with the composer's.
import './voice/recorder.css';

/** «Редактирование» loads with the first edit. */
const LazyEditBanner = lazyView<EditBannerProps>(() => import('./EditBanner').then((m) => m.EditBanner));

export interface ComposerProps {
  text: string;
  reply: { preview: string } | null;
  /** Upload progress of the files being sent, 0–100; null when nothing uploads. */
  uploadProgress: number | null;
  onText(text: string): void;
  onSubmit(): void;
  /** Right click (or a long press) on «Отправить»: «Отправить позже» (docs/behaviour.md §10.32). */
  onSendLater?(): void;
  onClearReply(): void;
  /** Files to send; `caption` is the message's text (from the send preview). */
  onAttach(files: (Blob & { name?: string })[], caption?: string): void;
  /** An own message being edited (the text above is its new text); null otherwise. */
  edit?: Omit<EditBannerProps, 'onCancel'> | null;
  onCancelEdit?(): void;
  /** ↑ in the empty composer: edit the last own message. */
  onEditLast?(): void;
  /** Saved messages are shown (no server answer): nothing can be written or sent until it answers. */
  readOnly?: boolean;
  inputRef?: Ref<HTMLTextAreaElement>;
  /** The voice recorder: the microphone takes the send button's place while the input is empty. */
  recorder?: RecorderPanel | null;
  /** The «@» list of a group (absent in direct chats). */
  mentions?: MentionPickerView | null;
  /** «Опрос» in the «Прикрепить» menu (groups and direct chats, not secret ones); absent: «Прикрепить» picks files. */
  onPoll?(): void;
}

const MAX_INPUT_PX = 160;

/** Over the limit the text stays and this says why (docs/behaviour.md §10.19). */
export const TOO_LONG = `Сообщение длиннее ${LIMITS.messageTextMax} символов — сократите его`;

export function Composer(props: ComposerProps) {
  const picker = useRef<HTMLInputElement>(null);
  const area = useRef<HTMLTextAreaElement | null>(null);
  const emojiButton = useRef<HTMLButtonElement>(null);
  const [emojiAt, setEmojiAt] = useState<{ left: number; bottom: number } | null>(null);
  const [attachMenu, setAttachMenu] = useState(false);
  // Words selected in the field: the formatting toolbar shows over them.
  const [selected, setSelected] = useState(false);
  const length = props.text.trim().length;
  const over = length > LIMITS.messageTextMax;

  // The input grows with its text up to a limit, then scrolls.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the height follows the text
  useLayoutEffect(() => {
    const el = area.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, MAX_INPUT_PX)}px`;
  }, [props.text]);

  const setArea = (el: HTMLTextAreaElement | null) => {
    area.current = el;
    const { inputRef } = props;
    if (typeof inputRef === 'function') inputRef(el);
    else if (inputRef) (inputRef as { current: HTMLTextAreaElement | null }).current = el;
  };
  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    if (over) return;
    if (!props.readOnly) props.onSubmit();
  };
  // Pasted pictures and files go to the send preview; pasted text stays text.
  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = [...e.clipboardData.files];
    if (files.length === 0 || props.readOnly) return;
    e.preventDefault();
    props.onAttach(files);
  };
  // The emoji goes in at the caret (replacing a selection), and the caret follows it.
  const insertEmoji = (emoji: string) => {
    const el = area.current;
    const start = el?.selectionStart ?? props.text.length;
    const end = el?.selectionEnd ?? props.text.length;
    props.onText(props.text.slice(0, start) + emoji + props.text.slice(end));
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + emoji.length, start + emoji.length);
    });
  };
  const toggleEmoji = () => {
    if (emojiAt) return setEmojiAt(null);
    const r = emojiButton.current?.getBoundingClientRect();
    setEmojiAt(
      r ? { left: Math.max(8, r.left), bottom: Math.max(8, window.innerHeight - r.top + 8) } : { left: 8, bottom: 80 },
    );
  };
  const mentions = props.mentions?.open ? props.mentions : null;
  // A choice in the «@» list rewrote the text: the caret goes after the inserted name.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the text changes
  useLayoutEffect(() => {
    const at = props.mentions?.takeCaret();
    if (at !== null && at !== undefined) area.current?.setSelectionRange(at, at);
  }, [props.text]);
  // Ctrl/⌘+B, I, U, Shift+X… wrap the selection in markers (./format-keys); K asks for the link's address.
  const applyFormat = (key: FormatKey) => {
    const el = area.current;
    const start = el?.selectionStart ?? props.text.length;
    const end = el?.selectionEnd ?? start;
    let next: Edited;
    if (key === 'link') {
      const url = window.prompt('Адрес ссылки', 'https://')?.trim();
      if (!url || url === 'https://') return;
      next = linkSelection(props.text, start, end, url);
    } else next = wrapSelection(props.text, start, end, key);
    props.onText(next.text);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(next.start, next.end);
    });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    const format = props.readOnly ? null : formatKeyOf(e);
    // Ctrl/⌘+K makes a selection a link; with nothing selected it is the quick switcher's (§10.49).
    const bare = e.currentTarget.selectionStart === e.currentTarget.selectionEnd;
    if (format && !(format === 'link' && bare)) {
      e.preventDefault();
      applyFormat(format);
      return;
    }
    if (mentions && !e.nativeEvent.isComposing) {
      const keys: Record<string, () => void> = {
        ArrowDown: mentions.next,
        ArrowUp: mentions.prev,
        Enter: () => mentions.choose(),
        Tab: () => mentions.choose(),
        Escape: mentions.dismiss,
      };
      const act = keys[e.key];
      if (act && !(e.key === 'Enter' && e.shiftKey)) {
        e.preventDefault();
        act();
        return;
      }
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
    } else if (e.key === 'Escape' && props.edit) {
      e.preventDefault();
      props.onCancelEdit?.();
    } else if (e.key === 'Escape' && props.reply) {
      e.preventDefault();
      props.onClearReply();
    } else if (e.key === 'ArrowUp' && !props.edit && props.text === '' && props.onEditLast) {
      e.preventDefault();
      props.onEditLast();
    }
  };
  const onPick = (e: ChangeEvent<HTMLInputElement>) => {
    const files = [...(e.target.files ?? [])];
    e.target.value = ''; // the same file can be picked again
    if (files.length) props.onAttach(files);
  };

  return (
    <form
      className="composer"
      onSubmit={submit}
      aria-label={props.edit ? 'Редактирование сообщения' : 'Новое сообщение'}
    >
      {props.edit && <LazyEditBanner {...props.edit} onCancel={() => props.onCancelEdit?.()} />}
      {props.reply && !props.edit && (
        <div className="composer-reply" data-testid="reply-banner">
          <div className="composer-reply-text">
            <span className="composer-reply-label">Ответ на:</span> <span>{props.reply.preview}</span>
          </div>
          <button
            type="button"
            className="icon-button small"
            aria-label="Отменить ответ"
            title="Отменить ответ"
            onClick={props.onClearReply}
          >
            <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true">
              <path d="M6 6l12 12M18 6L6 18" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
            </svg>
          </button>
        </div>
      )}
      {props.uploadProgress !== null && (
        <div className="composer-progress">
          <progress max={100} value={props.uploadProgress} aria-label="Загрузка файлов" data-testid="upload-progress" />
          <span aria-hidden="true">{props.uploadProgress}%</span>
        </div>
      )}
      {over && (
        <p className="form-error composer-too-long" role="alert">
          {TOO_LONG}
        </p>
      )}
      {mentions && (
        <div className="mention-list" id="mention-list" role="listbox" aria-label="Упомянуть участника">
          {mentions.candidates.map((m, i) => (
            <div
              key={m.id}
              id={`mention-${i}`}
              role="option"
              tabIndex={-1}
              aria-selected={i === mentions.index}
              className={`mention-option${i === mentions.index ? ' active' : ''}`}
              // A click chooses without taking the focus from the text.
              onMouseDown={(e) => {
                e.preventDefault();
                mentions.choose(i);
              }}
            >
              {m.everyone ? (
                <>
                  <span className="mention-name">{m.name}</span>{' '}
                  <span className="mention-username">Упомянуть всех</span>
                </>
              ) : (
                <>
                  <span className="mention-name">{m.name}</span> <span className="mention-username">@{m.username}</span>
                </>
              )}
            </div>
          ))}
        </div>
      )}
      {selected && !props.readOnly && (
        <div className="format-bar" role="toolbar" aria-label="Форматирование">
          {FORMAT_BUTTONS.map(([key, label, shown]) => (
            <button
              key={key}
              type="button"
              aria-label={label}
              title={label}
              // A click keeps the focus, and so the selection, in the field.
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => applyFormat(key)}
            >
              {shown}
            </button>
          ))}
        </div>
      )}
      {emojiAt && <LazyEmojiPicker label="Эмодзи" at={emojiAt} onPick={insertEmoji} onClose={() => setEmojiAt(null)} />}
      {props.recorder?.panel && <LazyVoiceRecorder {...props.recorder.panel} />}
      <div className="composer-row" hidden={Boolean(props.recorder?.panel)}>
        <button
          type="button"
          className="icon-button"
          aria-label="Прикрепить"
          title="Прикрепить"
          disabled={props.readOnly}
          aria-haspopup={props.onPoll ? 'menu' : undefined}
          aria-expanded={props.onPoll ? attachMenu : undefined}
          onClick={() => (props.onPoll ? setAttachMenu((open) => !open) : picker.current?.click())}
        >
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
            <path
              d="M20 11.5l-7.8 7.8a5 5 0 0 1-7.1-7.1l8.2-8.2a3.4 3.4 0 0 1 4.8 4.8l-8.2 8.2a1.7 1.7 0 0 1-2.4-2.4l7.5-7.5"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.8"
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          </svg>
        </button>
        {attachMenu && props.onPoll && (
          <AttachMenu
            onFiles={() => {
              setAttachMenu(false);
              picker.current?.click();
            }}
            onPoll={() => {
              setAttachMenu(false);
              props.onPoll?.();
            }}
            onClose={() => setAttachMenu(false)}
          />
        )}
        <input ref={picker} type="file" multiple hidden onChange={onPick} data-testid="attach-input" />
        <textarea
          ref={setArea}
          className="composer-input"
          rows={1}
          placeholder="Напишите сообщение..."
          aria-label="Сообщение"
          disabled={props.readOnly}
          value={props.text}
          onChange={(e) => {
            props.onText(e.target.value);
            props.mentions?.input(e.target.value, e.target.selectionStart ?? e.target.value.length);
          }}
          aria-autocomplete={props.mentions ? 'list' : undefined}
          aria-controls={mentions ? 'mention-list' : undefined}
          aria-activedescendant={mentions ? `mention-${mentions.index}` : undefined}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          onSelect={(e) => setSelected(e.currentTarget.selectionStart !== e.currentTarget.selectionEnd)}
          onKeyUp={(e) => setSelected(e.currentTarget.selectionStart !== e.currentTarget.selectionEnd)}
          onMouseUp={(e) => setSelected(e.currentTarget.selectionStart !== e.currentTarget.selectionEnd)}
          onBlur={() => setSelected(false)}
        />
        <button
          ref={emojiButton}
          type="button"
          className="icon-button"
          aria-label="Эмодзи"
          title="Эмодзи"
          aria-expanded={emojiAt !== null}
          disabled={props.readOnly}
          onPointerEnter={() => void LazyEmojiPicker.preload()}
          onClick={toggleEmoji}
        >
          <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
            <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeWidth="1.8" />
            <path
              d="M8.5 14.5a4.5 4.5 0 0 0 7 0"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.8"
              strokeLinecap="round"
            />
            <circle cx="9" cy="10" r="1.2" fill="currentColor" />
            <circle cx="15" cy="10" r="1.2" fill="currentColor" />
          </svg>
        </button>
        {length >= LIMITS.messageTextCounterFrom && (
          <span className={`composer-counter${over ? ' over' : ''}`} data-testid="text-counter" aria-live="polite">
            {LIMITS.messageTextMax - length}
          </span>
        )}
        {props.recorder && !props.readOnly && !props.text.trim() ? (
          <MicButton onStart={props.recorder.onStart} onPreload={LazyVoiceRecorder.preload} />
        ) : (
          <button
            type="submit"
            className="icon-button send"
            aria-label="Отправить"
            title={props.onSendLater ? 'Отправить (правая кнопка — «Отправить позже»)' : 'Отправить'}
            disabled={props.readOnly || !props.text.trim()}
            onContextMenu={(e) => {
              if (!props.onSendLater || props.readOnly || !props.text.trim()) return;
              e.preventDefault();
              props.onSendLater();
            }}
            aria-disabled={over || undefined}
          >
            <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
              <path
                d="M4 12l16-8-6 16-2.5-6.5z"
                fill="none"
                stroke="currentColor"
                strokeWidth="1.8"
                strokeLinejoin="round"
              />
            </svg>
          </button>
        )}
      </div>
    </form>
  );
}

/** «Прикрепить»'s menu: files and pictures, or a poll. Escape closes it; the first item takes the focus. */
function AttachMenu(props: { onFiles(): void; onPoll(): void; onClose(): void }) {
  return (
    <div
      className="attach-menu"
      role="menu"
      aria-label="Прикрепить"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          props.onClose();
        }
      }}
    >
      {/* biome-ignore lint/a11y/noAutofocus: a menu opened by a click gives its first item the focus */}
      <button type="button" role="menuitem" className="attach-menu-item" autoFocus onClick={props.onFiles}>
        Файл или фото
      </button>
      <button type="button" role="menuitem" className="attach-menu-item" onClick={props.onPoll}>
        Опрос
      </button>
    </div>
  );
}
