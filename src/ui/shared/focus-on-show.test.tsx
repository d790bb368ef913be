// A dialog that takes the focus has it in the same task that puts it on the screen. A dialog that shows after a state
// change that no key or click caused (a lazily loaded view, an incoming call, a machine's answer) and moved the focus in
// a passive effect left a window, one task or more on a busy phone, where a key the person pressed at once reached the
// page behind it: Escape went to the chat's thread panel and closed that instead of the dialog. The probe: a
// MutationObserver's callback runs right after the task that inserted the dialog, before any later one.
import type { ReactElement } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IncomingCallDialog } from '../calls/IncomingCallDialog';
import { Modal } from './Modal';

const actFlag = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
let saved: boolean | undefined;
beforeEach(() => {
  // Rendered as the app renders, not inside act(), which would run every effect before it returns.
  saved = actFlag.IS_REACT_ACT_ENVIRONMENT;
  actFlag.IS_REACT_ACT_ENVIRONMENT = false;
});
afterEach(() => {
  actFlag.IS_REACT_ACT_ENVIRONMENT = saved;
});

/** Where the focus is in the first callback after `selector` appears in the document. */
async function focusWhenShown(element: ReactElement, selector: string): Promise<{ inside: boolean; on: string }> {
  const opener = document.createElement('button');
  opener.textContent = 'opener';
  const host = document.createElement('div');
  document.body.append(opener, host);
  opener.focus();
  const root = createRoot(host);
  const seen = new Promise<{ inside: boolean; on: string }>((resolve) => {
    const watch = new MutationObserver(() => {
      const dialog = document.querySelector(selector);
      if (!dialog) return;
      watch.disconnect();
      const active = document.activeElement;
      resolve({ inside: Boolean(active && dialog.contains(active)), on: active?.textContent?.slice(0, 30) ?? '' });
    });
    watch.observe(document.body, { childList: true, subtree: true });
  });
  // From a timer: an update no input event caused, as a machine's answer is.
  setTimeout(() => root.render(element), 0);
  const result = await seen;
  root.unmount();
  opener.remove();
  host.remove();
  return result;
}

describe('a dialog has the focus in the task that shows it', () => {
  it('Modal', async () => {
    const shown = await focusWhenShown(
      <Modal title="Сочетания клавиш" onClose={() => {}}>
        <p>Ctrl+K</p>
      </Modal>,
      '[role="dialog"]',
    );
    expect(shown).toEqual({ inside: true, on: expect.any(String) });
  });

  it('the incoming call', async () => {
    const shown = await focusWhenShown(
      <IncomingCallDialog
        from={{ id: 'u1', name: 'Анна' }}
        video={false}
        onAccept={() => {}}
        onAcceptVideo={() => {}}
        onDecline={() => {}}
      />,
      '[role="alertdialog"]',
    );
    expect(shown).toEqual({ inside: true, on: expect.any(String) });
  });
});

describe('a modal keeps the focus from the page behind it', () => {
  it('takes it back from a view behind that focuses itself, and leaves it to a popover or a call above', () => {
    const composer = document.createElement('textarea');
    const call = document.createElement('div');
    call.setAttribute('role', 'alertdialog');
    const answer = document.createElement('button');
    call.append(answer);
    const host = document.createElement('div');
    document.body.append(composer, call, host);
    const closed: string[] = [];
    const root = createRoot(host);
    flushSync(() =>
      root.render(
        <Modal title="Сочетания клавиш" onClose={() => closed.push('closed')}>
          <button type="button">Понятно</button>
        </Modal>,
      ),
    );
    const dialog = document.querySelector('[role="dialog"]') as HTMLElement;
    expect(document.activeElement?.textContent).toBe('Понятно');
    // The chat's composer focuses itself once its data arrives.
    composer.focus();
    expect(document.activeElement?.textContent).toBe('Понятно');
    // So Escape still closes the dialog.
    document.activeElement?.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(closed).toEqual(['closed']);
    // A popover the dialog opens comes after it; an incoming call is a dialog of its own.
    const popover = document.createElement('button');
    document.body.append(popover);
    popover.focus();
    expect(document.activeElement).toBe(popover);
    answer.focus();
    expect(document.activeElement).toBe(answer);
    expect(dialog.isConnected).toBe(true);
    root.unmount();
    for (const el of [composer, call, host, popover]) el.remove();
  });
});
