// The emoji picker (frimousse, with emojibase's Russian names and search, served by this server under /emoji): loaded
// on demand (LazyEmojiPicker), never in the first bundle. Picks one emoji; Escape or a click outside closes it.
import { EmojiPicker as Picker } from 'frimousse';
import { useEffect, useRef } from 'react';
import './emoji-picker.css';

export interface EmojiPickerProps {
  /** Names the picker for screen readers («Эмодзи», «Реакция»). */
  label: string;
  onPick(emoji: string): void;
  onClose(): void;
  /** Where it floats (fixed position); centred when absent. */
  at?: { left: number; bottom: number } | null;
}

export function EmojiPicker(props: EmojiPickerProps) {
  const box = useRef<HTMLDivElement>(null);
  const { onClose } = props;
  useEffect(() => {
    const away = (e: Event) => {
      if (box.current && !box.current.contains(e.target as Node)) onClose();
    };
    const esc = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    document.addEventListener('pointerdown', away, true);
    document.addEventListener('keydown', esc);
    box.current?.querySelector<HTMLInputElement>('input')?.focus();
    return () => {
      document.removeEventListener('pointerdown', away, true);
      document.removeEventListener('keydown', esc);
    };
  }, [onClose]);
  return (
    <div
      ref={box}
      className={`emoji-picker${props.at ? '' : ' centred'}`}
      role="dialog"
      aria-label={props.label}
      style={props.at ? { left: props.at.left, bottom: props.at.bottom } : undefined}
    >
      <Picker.Root locale="ru" emojibaseUrl="/emoji" columns={8} onEmojiSelect={({ emoji }) => props.onPick(emoji)}>
        <Picker.Search className="emoji-picker-search" placeholder="Поиск эмодзи" aria-label="Поиск эмодзи" />
        <Picker.Viewport className="emoji-picker-viewport">
          <Picker.Loading className="emoji-picker-note">Загружаем эмодзи…</Picker.Loading>
          <Picker.Empty className="emoji-picker-note">Ничего не найдено</Picker.Empty>
          <Picker.List
            className="emoji-picker-list"
            components={{
              CategoryHeader: ({ category, ...rest }) => (
                <div className="emoji-picker-category" {...rest}>
                  {category.label}
                </div>
              ),
              Emoji: ({ emoji, ...rest }) => (
                <button className="emoji-picker-emoji" {...rest}>
                  {emoji.emoji}
                </button>
              ),
            }}
          />
        </Picker.Viewport>
      </Picker.Root>
    </div>
  );
}
