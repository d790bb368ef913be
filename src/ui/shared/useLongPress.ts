// A long press on a touch screen (≈ 500 ms without moving): iOS Safari sends no contextmenu event, so the message
// menu opens from this. A move beyond a few pixels (a scroll), a second finger or lifting early cancels it.
import { type TouchEvent, useCallback, useEffect, useRef } from 'react';
import { LAYOUT } from '../../contract/limits';

export function useLongPress<T extends HTMLElement>(onLongPress: (at: { x: number; y: number }, target: T) => void) {
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const start = useRef<{ x: number; y: number } | null>(null);
  const cancel = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    start.current = null;
  }, []);
  useEffect(() => cancel, [cancel]);
  const onTouchStart = (e: TouchEvent<T>) => {
    cancel();
    const t = e.touches[0];
    if (e.touches.length !== 1 || !t) return;
    const at = { x: t.clientX, y: t.clientY };
    const target = e.currentTarget;
    start.current = at;
    timer.current = setTimeout(() => {
      timer.current = null;
      onLongPress(at, target);
    }, LAYOUT.longPressMs);
  };
  const onTouchMove = (e: TouchEvent<T>) => {
    const s = start.current;
    const t = e.touches[0];
    if (!s || !t) return;
    if (Math.hypot(t.clientX - s.x, t.clientY - s.y) > LAYOUT.longPressSlopPx) cancel();
  };
  return { onTouchStart, onTouchMove, onTouchEnd: cancel, onTouchCancel: cancel };
}
