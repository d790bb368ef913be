/** Events that carry user activation in browsers (touchend, not touchstart; pointerdown covers mouse and pen). */
export const UNLOCK_EVENTS = ['pointerdown', 'click', 'keydown', 'touchend'] as const;
