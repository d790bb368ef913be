// The emoji picker (frimousse, with emojibase's Russian names and search, served by this server under /emoji): loaded
// on demand (LazyEmojiPicker), never in the first bundle. Picks one emoji; Escape or a click outside closes it.
import {
  type EmojiPickerListCategoryHeaderProps,
  type EmojiPickerListEmojiProps,
  type EmojiPickerListRowProps,
  EmojiPicker as Picker,
} from 'frimousse';
import { createContext, type RefObject, useContext, useEffect, useLayoutEffect, useRef } from 'react';
import './emoji-picker.css';

/** Whether the arrow keys (not the pointer) moved the active emoji last. */
const KeyboardMoves = createContext<RefObject<boolean>>({ current: false });

// frimousse 0.4.0 numbers the grid's rows and columns from 0; ARIA counts from 1 (aria-valid-attr-value).
const plusOne = (n: unknown) => (typeof n === 'number' ? n + 1 : undefined);

function CategoryHeader({ category, ...rest }: EmojiPickerListCategoryHeaderProps) {
  return (
    <div className="emoji-picker-category" {...rest}>
      {category.label}
    </div>
  );
}

function Row({ children, ...rest }: EmojiPickerListRowProps) {
  return (
    <div {...rest} {...{ 'aria-rowindex': plusOne(rest['aria-rowindex']) }}>
      {children}
    </div>
  );
}

function Emoji({ emoji, ...rest }: EmojiPickerListEmojiProps) {
  const button = useRef<HTMLButtonElement>(null);
  const keyboard = useContext(KeyboardMoves);
  // frimousse scrolls a keyboard move to the row it finds by aria-rowindex: one row above, now that rows count from
  // 1. The active emoji brings itself into view instead.
  useLayoutEffect(() => {
    if (emoji.isActive && keyboard.current) button.current?.scrollIntoView?.({ block: 'nearest' });
  }, [emoji.isActive, keyboard]);
  return (
    <button
      ref={button}
      type="button"
      className="emoji-picker-emoji"
      {...rest}
      {...{ 'aria-colindex': plusOne(rest['aria-colindex']) }}
    >
      {emoji.emoji}
    </button>
  );
}

const components = { CategoryHeader, Row, Emoji };

/** Keeps a floating picker's box inside the viewport: `at` is where it would like to be, 8 px from any edge at least. */
function placed(at: { left: number; bottom: number }) {
  return {
    left: `clamp(8px, ${at.left}px, calc(100vw - var(--emoji-picker-width) - 8px))`,
    bottom: `clamp(8px, ${at.bottom}px, calc(100dvh - var(--emoji-picker-height) - 8px))`,
  };
}

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
  const keyboard = useRef(false);
  const { onClose } = props;
  useEffect(() => {
    const away = (e: Event) => {
      if (box.current && !box.current.contains(e.target as Node)) onClose();
    };
    // One layer per Escape (docs/behaviour.md §10.49): the picker closes, the panel under it stays.
    const esc = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      e.preventDefault();
      onClose();
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
      style={props.at ? placed(props.at) : undefined}
      onKeyDown={(e) => {
        keyboard.current = e.key.startsWith('Arrow');
      }}
      onPointerMove={() => {
        keyboard.current = false;
      }}
    >
      <KeyboardMoves.Provider value={keyboard}>
        <Picker.Root locale="ru" emojibaseUrl="/emoji" columns={8} onEmojiSelect={({ emoji }) => props.onPick(emoji)}>
          <Picker.Search className="emoji-picker-search" placeholder="Поиск эмодзи" aria-label="Поиск эмодзи" />
          <Picker.Viewport className="emoji-picker-viewport">
            <Picker.Loading className="emoji-picker-note">Загружаем эмодзи…</Picker.Loading>
            <Picker.Empty className="emoji-picker-note">Ничего не найдено</Picker.Empty>
            <Picker.List className="emoji-picker-list" components={components} />
          </Picker.Viewport>
        </Picker.Root>
      </KeyboardMoves.Provider>
    </div>
  );
}
