// The four EBLID boxes (docs/behaviour.md §5), one group to a screen reader ('EBLID'). What each key does is the
// contactCode actor's business; this only reports it and puts the focus where the actor says.
import { type ClipboardEvent, type KeyboardEvent, useLayoutEffect, useRef } from 'react';
import './contacts.css';

export interface CodeBoxesProps {
  digits: readonly string[];
  focus: number;
  disabled?: boolean;
  onType: (index: number, value: string) => void;
  onBackspace: (index: number) => void;
  onPaste: (text: string) => void;
  onFocusBox: (index: number) => void;
  /** Enter in a box (adds when the code is complete). */
  onSubmit?: () => void;
}

export function CodeBoxes(props: CodeBoxesProps) {
  const group = useRef<HTMLFieldSetElement>(null);
  const boxes = useRef<(HTMLInputElement | null)[]>([]);

  // Follow the actor's focus only while the user is in these boxes (another panel may share the actor).
  useLayoutEffect(() => {
    const box = boxes.current[props.focus];
    if (box && group.current?.contains(document.activeElement) && document.activeElement !== box) box.focus();
  }, [props.focus]);

  const onKeyDown = (index: number) => (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Backspace') {
      e.preventDefault();
      props.onBackspace(index);
    } else if (e.key === 'ArrowLeft' && index > 0) {
      e.preventDefault();
      props.onFocusBox(index - 1);
    } else if (e.key === 'ArrowRight' && index < props.digits.length - 1) {
      e.preventDefault();
      props.onFocusBox(index + 1);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      props.onSubmit?.();
    }
  };
  const onPaste = (e: ClipboardEvent<HTMLInputElement>) => {
    e.preventDefault();
    props.onPaste(e.clipboardData.getData('text'));
  };

  return (
    <fieldset ref={group} className="code-boxes">
      <legend className="visually-hidden">EBLID</legend>
      {props.digits.map((digit, i) => (
        <input
          // The boxes never reorder.
          // biome-ignore lint/suspicious/noArrayIndexKey: a box is its position
          key={i}
          ref={(el) => {
            boxes.current[i] = el;
          }}
          className="code-box"
          inputMode="numeric"
          autoComplete="off"
          pattern="[0-9]"
          aria-label={`Цифра ${i + 1} из ${props.digits.length}`}
          value={digit}
          disabled={props.disabled}
          onChange={(e) => props.onType(i, e.target.value)}
          onKeyDown={onKeyDown(i)}
          onPaste={onPaste}
          onFocus={(e) => {
            e.target.select();
            props.onFocusBox(i);
          }}
        />
      ))}
    </fieldset>
  );
}
