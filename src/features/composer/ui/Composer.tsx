// The composer (docs/behaviour.md §2): 'Напишите сообщение...', Enter sends (Shift+Enter is a new line), 'Прикрепить'
// picks files, the reply banner 'Ответ на:' with its close button, and the upload progress bar. While an own message is
// edited the banner is «Редактирование» (EditBanner): Enter saves, Escape cancels; ↑ in an empty composer edits the
// last own message.
import { type ChangeEvent, type FormEvent, type KeyboardEvent, type Ref, useLayoutEffect, useRef } from 'react';
import { lazyView } from '../../../shared/ui/lazy-view';
import type { EditBannerProps } from './EditBanner';
import { LazyVoiceRecorder } from './voice/LazyVoiceRecorder';
import { MicButton } from './voice/MicButton';
import type { RecorderPanel } from './voice/useRecorderPanel';

/** «Редактирование» loads with the first edit. */
const LazyEditBanner = lazyView<EditBannerProps>(() => import('./EditBanner').then((m) => m.EditBanner));

export interface ComposerProps {
  text: string;
  reply: { preview: string } | null;
  /** Upload progress of the files being sent, 0–100; null when nothing uploads. */
  uploadProgress: number | null;
  onText(text: string): void;
  onSubmit(): void;
  onClearReply(): void;
  onAttach(files: File[]): void;
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
}

const MAX_INPUT_PX = 160;

export function Composer(props: ComposerProps) {
  const picker = useRef<HTMLInputElement>(null);
  const area = useRef<HTMLTextAreaElement | null>(null);

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
    if (!props.readOnly) props.onSubmit();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
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
      {props.recorder?.panel && <LazyVoiceRecorder {...props.recorder.panel} />}
      <div className="composer-row" hidden={Boolean(props.recorder?.panel)}>
        <button
          type="button"
          className="icon-button"
          aria-label="Прикрепить"
          title="Прикрепить"
          disabled={props.readOnly}
          onClick={() => picker.current?.click()}
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
        <input ref={picker} type="file" multiple hidden onChange={onPick} data-testid="attach-input" />
        <textarea
          ref={setArea}
          className="composer-input"
          rows={1}
          placeholder="Напишите сообщение..."
          aria-label="Сообщение"
          disabled={props.readOnly}
          value={props.text}
          onChange={(e) => props.onText(e.target.value)}
          onKeyDown={onKeyDown}
        />
        {props.recorder && !props.readOnly && !props.text.trim() ? (
          <MicButton onStart={props.recorder.onStart} onPreload={LazyVoiceRecorder.preload} />
        ) : (
          <button
            type="submit"
            className="icon-button send"
            aria-label="Отправить"
            title="Отправить"
            disabled={props.readOnly || !props.text.trim()}
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
