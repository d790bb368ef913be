// What a screen reader says (docs/behaviour.md §10.48), read by @guidepup/virtual-screen-reader over the real views:
// the chat list, an open chat with replies, files, reactions and a message arriving, the composer, the incoming-call
// dialog and a dialog with a form. jsdom has no layout: for the timeline, a ResizeObserver that reports a tall
// viewport lets the virtualizer (virtua) draw every row, as a browser would for a short history.
import { virtual } from '@guidepup/virtual-screen-reader';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback } from 'xstate';
import { message, person } from '../../../tests/client/chat-fixtures';
import { ANNOUNCER_TIMINGS } from '../../machines/conversation/announcer/announcer.protocol';
import { announcerMachine } from '../../machines/conversation/announcer/announcer.machine';
import type { FocusMove } from '../../machines/conversation/conversation/conversation.protocol';
import { focusTarget } from '../../machines/conversation/conversation/timeline-focus';
import { IncomingCallDialog } from '../calls/IncomingCallDialog';
import { ChatList } from '../chats/ChatList';
import { Composer } from '../composer/Composer';
import { CustomStatusDialogView } from '../profile/CustomStatusDialog';
import { LiveRegions } from './Announcer';
import { MessageList } from './MessageList';
import { type MessageRow, messageRows } from './view-model';

const avatar = { face: { kind: 'initials' as const, text: 'А' }, colour: '#2f57d1', presence: null };
const noop = () => {};

/** Everything the virtual screen reader says reading `container` from its start until it says `last`. */
async function readAll(container: HTMLElement, last: string): Promise<string[]> {
  await virtual.start({ container });
  for (let i = 0; i < 300 && (await virtual.lastSpokenPhrase()) !== last; i++) await virtual.next();
  return virtual.spokenPhraseLog();
}

afterEach(async () => {
  await virtual.stop();
  vi.useRealTimers();
});

/** An announcer actor with no sources: the test tells it what happened; its live regions render its snapshot. */
function announcerActor() {
  return createActor(announcerMachine.provide({ actors: { sources: fromCallback(() => () => {}) as never } })).start();
}
function Regions({ actor }: { actor: ReturnType<typeof announcerActor> }) {
  const polite = useSelector(actor, (s) => s.context.polite);
  const assertive = useSelector(actor, (s) => s.context.assertive);
  return <LiveRegions polite={polite} assertive={assertive} />;
}

describe('the chat list', () => {
  it('reads each chat as a button with its name, last message and unread count', async () => {
    const { container } = render(
      <ChatList
        tiles={[
          { id: 'c1', title: 'Анна', avatar, subtitle: '3 непрочитанных', unread: 3, active: false },
          { id: 'c2', title: 'Поход', avatar, subtitle: 'Борис: завтра в 7', unread: 0, active: true },
        ]}
        loaded
        onOpen={noop}
      />,
    );
    const log = await readAll(container, 'end of region, Чаты');
    // jsdom has no CSS: the tile's title and subtitle (grid items, blocks in a browser, which reads a pause between
    // them) run together in the button's name here.
    const tiles = log.filter((p) => p.startsWith('button, '));
    expect(tiles).toHaveLength(2);
    expect(tiles[0]).toMatch(/^button, Анна\s?3 непрочитанных$/);
    expect(tiles[1]).toMatch(/^button, Поход\s?Борис: завтра в 7, current item$/);
    expect(log.slice(0, 4)).toEqual([
      'region, Чаты',
      'heading, Чаты, level 1',
      'list',
      'listitem, level 1, position 1, set size 2',
    ]);
  });
});

describe('an open chat', () => {
  const people = new Map([
    ['me', person('me', 'Я')],
    ['u2', person('u2', 'Анна')],
    ['u3', person('u3', 'Борис')],
  ]);
  const file = {
    url: '/u/otchet.pdf',
    type: 'FILE' as const,
    name: 'отчёт.pdf',
    width: null,
    height: null,
    size: 2048,
  };
  const history = [
    message('m1', 'u2', 0, { content: 'Привет! Как дела?' }),
    message('m2', 'u2', 1, { type: 'FILE', content: '', attachments: [file] }),
    message('m3', 'me', 2, {
      content: 'Отлично',
      replyTo: { id: 'm1', content: 'Привет! Как дела?' },
      receipts: [{ userId: 'u2', status: 'READ' }],
      reactions: [{ emoji: '👍', userIds: ['u2'] }],
    }),
    message('m4', 'u3', 3, { type: 'VOICE', content: '', voice: { durationMs: 7_000, waveform: [] } }),
  ];
  const rowsOf = (messages: typeof history, unreadFrom: string | null = null) =>
    messageRows(messages, [], {
      me: 'me',
      conversationId: 'c1',
      isGroup: true,
      people,
      unreadFrom,
      now: new Date('2025-03-01T12:00:00.000Z'),
    });

  /** The pane's list with the conversation actor's focus rule (timeline-focus.ts) kept in state. */
  function Timeline({ rows }: { rows: MessageRow[] }) {
    const [focus, setFocus] = useState<{ id: string | null; move: { id: string; n: number } | null }>({
      id: null,
      move: null,
    });
    const onMoveFocus = (move: FocusMove, ids: string[]) =>
      setFocus((f) => {
        const id = focusTarget(ids, f.id, move);
        return { id, move: { id, n: (f.move?.n ?? 0) + 1 } };
      });
    return (
      <MessageList
        rows={rows}
        firstItemIndex={1000}
        hasMore={false}
        loadingOlder={false}
        highlight={null}
        bottomSignal={0}
        onLoadOlder={noop}
        onVisibleUnread={noop}
        onReply={noop}
        onEdit={noop}
        onAction={noop}
        menuOptions={{ canPin: false, pinned: new Set() }}
        onReact={noop}
        onJump={noop}
        onOpenImage={noop}
        onRetry={noop}
        onRemove={noop}
        focusedId={focus.id}
        focusMove={focus.move}
        onFocusMessage={(id) => setFocus((f) => ({ ...f, id }))}
        onMoveFocus={onMoveFocus}
      />
    );
  }

  // The scroll area 5000 px tall, each row 40 px, every element laid out (virtua measures rows with an offsetParent).
  const sized = window.ResizeObserver;
  const offsetParent = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'offsetParent');
  beforeAll(() => {
    window.ResizeObserver = class {
      constructor(private report: ResizeObserverCallback) {}
      observe(target: Element) {
        const height = target.classList.contains('msg-scroller') ? 5000 : 40;
        setTimeout(() => this.report([{ target, contentRect: { width: 800, height } } as never], this as never));
      }
      unobserve() {}
      disconnect() {}
    } as never;
    Object.defineProperty(HTMLElement.prototype, 'offsetParent', {
      configurable: true,
      get(this: HTMLElement) {
        return this.parentElement;
      },
    });
  });
  afterAll(() => {
    window.ResizeObserver = sized;
    if (offsetParent) Object.defineProperty(HTMLElement.prototype, 'offsetParent', offsetParent);
  });

  it('reads each message as one item: sender once per run, text, attachments, reply, reactions, time, «прочитано»', async () => {
    const { container } = render(<Timeline rows={rowsOf(history, 'm4')} />);
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(4));
    const log = await readAll(container, 'end of log, Сообщения, not busy');
    // Not a live region: the log is read, never announced; the day and the unread divider are headings.
    expect(log.filter((p) => /^(log|heading|article),/.test(p))).toEqual([
      'log, Сообщения, not busy',
      'heading, Сегодня, level 3',
      'article, Анна: Привет! Как дела? 10:00',
      'article, Файл: отчёт.pdf. 10:01',
      'article, Вы: Отлично. Ответ на: Привет! Как дела? Реакции: 👍 1: Анна. 10:02, прочитано',
      'heading, Непрочитанные сообщения, level 3',
      'article, Борис: Голосовое сообщение, 0:07. 10:03',
    ]);
    // Inside, each part stays readable on its own (browse mode): the reply, the file, the reactions.
    expect(log).toEqual(
      expect.arrayContaining([
        'button, Ответ на: Привет! Как дела?',
        'list, Реакции',
        'button, 👍 1: Анна, Анна, not pressed',
        'button, Действия с сообщением, has popup menu',
      ]),
    );
    expect(log.some((p) => p.startsWith('link, Файл: отчёт.pdf'))).toBe(true);
  });

  it('moves message by message with ↑/↓, Home and End; Enter opens the actions, Escape comes back', async () => {
    const { container } = render(<Timeline rows={rowsOf(history)} />);
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(4));
    const articles = screen.getAllByRole('article');
    await virtual.start({ container });
    act(() => articles[3]?.focus());
    const press = async (key: string, to: number) => {
      fireEvent.keyDown(document.activeElement as HTMLElement, { key });
      expect(document.activeElement).toBe(articles[to]);
    };
    await press('ArrowUp', 2);
    await press('ArrowUp', 1);
    await press('Home', 0);
    await press('ArrowUp', 0); // stays on the first
    await press('ArrowDown', 1);
    await press('End', 3);
    await waitFor(async () => expect((await virtual.spokenPhraseLog()).length).toBe(7));
    expect(await virtual.spokenPhraseLog()).toEqual([
      'log, Сообщения, not busy',
      'article, Борис: Голосовое сообщение, 0:07. 10:03',
      'article, Вы: Отлично. Ответ на: Привет! Как дела? Реакции: 👍 1: Анна. 10:02, прочитано',
      'article, Файл: отчёт.pdf. 10:01',
      'article, Анна: Привет! Как дела? 10:00',
      'article, Файл: отчёт.pdf. 10:01',
      'article, Борис: Голосовое сообщение, 0:07. 10:03',
    ]);
    // One tab stop: the message the keyboard is on.
    expect(articles.map((a) => a.tabIndex)).toEqual([-1, -1, -1, 0]);
    fireEvent.keyDown(document.activeElement as HTMLElement, { key: 'Enter' });
    const first = await screen.findByRole('menuitem', { name: 'Цитировать' }, { timeout: 10_000 });
    await waitFor(() => expect(first).toHaveFocus());
    fireEvent.keyDown(first, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    expect(document.activeElement).toBe(articles[3]);
  });

  it('says a message arriving in the open chat once, politely; the list itself stays silent', async () => {
    const announcer = announcerActor();
    announcer.send({ type: 'announcer.opened', conversationId: 'c1' });
    const { container, rerender } = render(
      <>
        <Timeline rows={rowsOf(history)} />
        <Regions actor={announcer} />
      </>,
    );
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(4));
    await virtual.start({ container });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const arrived = message('m5', 'u2', 4, { content: 'привет' });
    announcer.send({
      type: 'announcer.message',
      conversationId: 'c1',
      own: false,
      senderId: 'u2',
      senderName: 'Анна',
      preview: 'привет',
    });
    rerender(
      <>
        <Timeline rows={rowsOf([...history, arrived])} />
        <Regions actor={announcer} />
      </>,
    );
    act(() => vi.advanceTimersByTime(ANNOUNCER_TIMINGS.burstMs));
    vi.useRealTimers();
    await waitFor(async () => expect(await virtual.spokenPhraseLog()).toContain('polite: Анна: привет'));
    // The new row in the log is not read out: the announcer's words are all that is said, once.
    expect(await virtual.spokenPhraseLog()).toEqual(['log, Сообщения, not busy', 'polite: Анна: привет']);
    expect(screen.getAllByRole('article').at(-1)).toHaveAccessibleName('Анна: привет. 10:04');
  });
});

describe('the composer', () => {
  it('reads the field, the reply being written and the buttons', async () => {
    const { container } = render(
      <Composer
        text=""
        reply={{ preview: 'Привет! Как дела?' }}
        uploadProgress={null}
        onText={noop}
        onSubmit={noop}
        onClearReply={noop}
        onAttach={noop}
      />,
    );
    expect(await readAll(container, 'end of form, Новое сообщение')).toEqual([
      'form, Новое сообщение',
      'Ответ на:',
      'Привет! Как дела?',
      'button, Отменить ответ',
      'button, Прикрепить',
      'textbox, Сообщение, placeholder Напишите сообщение...',
      'button, Эмодзи, not expanded',
      'button, Отправить, disabled',
      'end of form, Новое сообщение',
    ]);
  });
});

describe('the incoming-call dialog', () => {
  it('is said at once, assertively, with the caller and how to answer; Enter answers', async () => {
    const announcer = announcerActor();
    const onAccept = vi.fn();
    const page = (ringing: boolean) => (
      <>
        <Regions actor={announcer} />
        {ringing && (
          <IncomingCallDialog
            from={{ id: 'u2', name: 'Анна' }}
            video={false}
            onAccept={onAccept}
            onAcceptVideo={noop}
            onDecline={noop}
          />
        )}
      </>
    );
    const { container, rerender } = render(page(false));
    await virtual.start({ container });
    // The call machine shows the dialog as the announcer hears the same server event.
    act(() => announcer.send({ type: 'announcer.call', name: 'Анна', video: false }));
    rerender(page(true));
    await waitFor(async () =>
      expect(await virtual.spokenPhraseLog()).toContain(
        'assertive: Входящий звонок: Анна. Ответить — Enter, отклонить — Escape',
      ),
    );
    expect(await virtual.spokenPhraseLog()).toEqual([
      'assertive: Входящий звонок: Анна. Ответить — Enter, отклонить — Escape',
    ]);
    // The dialog itself: its title, the caller and the three buttons.
    await virtual.stop();
    const dialog = await readAll(container, 'button, Ответить с видео');
    // jsdom has no CSS: the caller's name and the kind of call (blocks in a browser) run together in the description.
    expect(dialog.find((p) => p.startsWith('alertdialog'))).toMatch(
      /^alertdialog, Входящий аудио\/видео звонок, Анна\s?Аудиозвонок$/,
    );
    expect(dialog).toEqual(
      expect.arrayContaining([
        'heading, Входящий аудио/видео звонок, level 2',
        'Анна',
        'Аудиозвонок',
        'button, Отклонить',
        'button, Ответить',
        'button, Ответить с видео',
      ]),
    );
    // Focus is on the dialog: Enter answers, as the announcement says.
    expect(screen.getByRole('alertdialog')).toHaveFocus();
    fireEvent.keyDown(screen.getByRole('alertdialog'), { key: 'Enter' });
    expect(onAccept).toHaveBeenCalledTimes(1);
  });
});

describe('a dialog with a form', () => {
  it('reads «Статус»: its title, the labelled fields and the buttons', async () => {
    const { baseElement } = render(
      <CustomStatusDialogView
        hasCurrent={false}
        emoji=""
        text=""
        clearAfter="today"
        error={null}
        busy={false}
        onEmoji={noop}
        onText={noop}
        onClearAfter={noop}
        onSave={noop}
        onClear={noop}
        onClose={noop}
      />,
    );
    const log = await readAll(baseElement, 'end of dialog, Статус, modal');
    expect(
      log.filter((p) => /^(dialog|heading|form|group|textbox|combobox|button, (Отмена|Сохранить|Закрыть))/.test(p)),
    ).toEqual([
      'dialog, Статус, modal',
      'dialog, Статус, modal',
      'heading, Статус, level 2',
      'button, Закрыть окно',
      'form, not busy',
      'group, Эмодзи',
      'textbox, Что у вас, 0 из 80, placeholder Например, в отпуске',
      'combobox, Сбросить через, today, has popup listbox, not expanded',
      'button, Отмена',
      'button, Сохранить',
    ]);
  });
});
