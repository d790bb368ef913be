// The chats page's views rendered from props (no actors): list, header, bubbles, menu, composer, the pane with
// its placeholders and the virtualized list.
import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ChatList, SKELETON_ROWS } from './ChatList';
import { Composer, type ComposerProps } from '../composer/Composer';
import { ConversationHeader } from '../conversation/ConversationHeader';
import { ConversationView, type ConversationViewProps } from '../conversation/ConversationView';
import { NoConversation } from '../conversation/NoConversation';
import { MessageBubble, type MessageBubbleProps } from '../conversation/MessageBubble';
import { menuItems } from '../conversation/message-actions';
import { MessageMenu } from '../conversation/MessageMenu';
import { TypingIndicator } from '../conversation/TypingIndicator';
import type { ChatTileView, HeaderView, MessageRow } from '../conversation/view-model';

const avatar = { face: { kind: 'initials' as const, text: 'Б' }, colour: '#2f57d1', presence: 'online' as const };
const tile = (over: Partial<ChatTileView> = {}): ChatTileView => ({
  id: 'c1',
  title: 'Борис',
  avatar,
  subtitle: 'ОНЛАЙН',
  unread: 0,
  active: false,
  ...over,
});
const header: HeaderView = { title: 'Борис', avatar, status: 'ОНЛАЙН', online: true };
const row = (over: Partial<MessageRow> = {}): MessageRow => ({
  key: 'm1',
  id: 'm1',
  own: false,
  senderId: 'u2',
  senderName: 'Борис',
  showSender: false,
  firstInRun: true,
  lastInRun: true,
  day: null,
  dayOf: 'Сегодня',
  unreadDivider: false,
  edited: null,
  editable: false,
  reactions: [],
  time: '10:15',
  type: 'TEXT',
  text: 'Привет',
  attachments: [],
  reply: null,
  delivery: null,
  unread: false,
  pending: null,
  ...over,
});
const bubbleProps = (over: Partial<MessageBubbleProps> = {}): MessageBubbleProps => ({
  row: row(),
  flash: 0,
  onMenu: vi.fn(),
  onJump: vi.fn(),
  onOpenImage: vi.fn(),
  onRetry: vi.fn(),
  onRemove: vi.fn(),
  onReact: vi.fn(),
  ...over,
});

describe('ChatList', () => {
  it("shows 'Чаты', tiles with title and subtitle, the unread count highlighted, and opens a tile", async () => {
    const onOpen = vi.fn();
    render(
      <ChatList
        tiles={[
          tile({ id: 'c1', unread: 3, subtitle: '3 непрочитанных' }),
          tile({ id: 'c2', title: 'Поход', subtitle: 'Анна, Вера', avatar: { ...avatar, presence: null } }),
        ]}
        loaded
        onOpen={onOpen}
        footer={<div>Подвал</div>}
      />,
    );
    expect(screen.getByRole('heading', { name: 'Чаты' })).toBeInTheDocument();
    const tiles = screen.getAllByTestId('chat-tile');
    expect(tiles.map((t) => t.getAttribute('data-conversation-id'))).toEqual(['c1', 'c2']);
    const unread = within(tiles[0]).getByTestId('chat-tile-subtitle');
    expect(unread).toHaveTextContent('3 непрочитанных');
    expect(unread).toHaveClass('unread');
    expect(tiles[0].querySelector('[data-presence="online"]')).not.toBeNull();
    expect(tiles[1].querySelector('[data-presence]')).toBeNull();
    expect(within(tiles[1]).getByTestId('chat-tile-subtitle')).toHaveTextContent('Анна, Вера');
    await userEvent.click(tiles[1]);
    expect(onOpen).toHaveBeenCalledWith('c2');
    expect(screen.getByText('Подвал')).toBeInTheDocument();
  });

  it('marks the selected tile and says when there is nothing yet', () => {
    const { rerender } = render(<ChatList tiles={[tile({ active: true })]} loaded onOpen={() => {}} />);
    expect(screen.getByTestId('chat-tile')).toHaveAttribute('aria-current', 'true');
    rerender(<ChatList tiles={[]} loaded={false} onOpen={() => {}} />);
    // Loading: the status for screen readers, and placeholder rows in the tiles' geometry (hidden from them).
    expect(screen.getByRole('status')).toHaveTextContent('Загружаем беседы…');
    expect(screen.getAllByTestId('chat-tile-skeleton')).toHaveLength(SKELETON_ROWS);
    expect(screen.getAllByTestId('chat-tile-skeleton')[0].closest('[aria-hidden="true"]')).not.toBeNull();
    rerender(<ChatList tiles={[]} loaded onOpen={() => {}} />);
    expect(screen.getByText(/Пока нет бесед/)).toBeInTheDocument();
    expect(screen.queryByTestId('chat-tile-skeleton')).toBeNull();
  });

  // The menu's code is a chunk of its own: the first right-click waits for it.
  it('«Избранное»’s menu has no «Закрепить», «В архив» or «Удалить чат»; another chat’s has them', async () => {
    const menu = { busy: false, error: null, confirm: null, run: vi.fn(), onConfirm() {}, onCancel() {} };
    render(
      <ChatList
        tiles={[tile({ id: 'saved-u1', title: 'Избранное', saved: true }), tile({ id: 'c2' })]}
        loaded
        onOpen={() => {}}
        menu={menu}
      />,
    );
    const items = async () =>
      (await screen.findAllByRole('menuitem', {}, { timeout: 10_000 })).map((m) => m.textContent);
    fireEvent.contextMenu(screen.getByTestId('saved-tile'), { clientX: 5, clientY: 5 });
    const saved = await items();
    expect(saved).not.toContain('Удалить чат');
    expect(saved).not.toContain('Закрепить');
    expect(saved).not.toContain('В архив');
    expect(saved).toContain('Очистить историю');
    fireEvent.keyDown(window, { key: 'Escape' });
    fireEvent.contextMenu(screen.getByTestId('chat-tile'), { clientX: 5, clientY: 5 });
    expect(await items()).toEqual(expect.arrayContaining(['Закрепить', 'В архив', 'Очистить историю', 'Удалить чат']));
  }, 20_000);

  it('a marked chat shows a dot without a number (the count wins), and its menu offers the way back', async () => {
    const run = vi.fn();
    const menu = { busy: false, error: null, confirm: null, run, onConfirm() {}, onCancel() {} };
    const { rerender } = render(
      <ChatList tiles={[tile({ id: 'c2', markedUnread: true, unread: 0 })]} loaded onOpen={() => {}} menu={menu} />,
    );
    expect(screen.getByTestId('chat-tile-marked')).toBeInTheDocument();
    expect(screen.getByTestId('chat-tile-marked')).toHaveTextContent('');
    fireEvent.contextMenu(screen.getByTestId('chat-tile'), { clientX: 5, clientY: 5 });
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Пометить как прочитанное' }, { timeout: 10_000 }));
    expect(run).toHaveBeenCalledWith({ kind: 'settings', conversationId: 'c2', change: { markedUnread: false } });
    rerender(
      <ChatList tiles={[tile({ id: 'c2', markedUnread: true, unread: 3 })]} loaded onOpen={() => {}} menu={menu} />,
    );
    expect(screen.queryByTestId('chat-tile-marked')).toBeNull();
    rerender(<ChatList tiles={[tile({ id: 'c2', unread: 0 })]} loaded onOpen={() => {}} menu={menu} />);
    fireEvent.contextMenu(screen.getByTestId('chat-tile'), { clientX: 5, clientY: 5 });
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Пометить как непрочитанное' }));
    expect(run).toHaveBeenLastCalledWith({ kind: 'settings', conversationId: 'c2', change: { markedUnread: true } });
  }, 20_000);

  it('shows an emoji avatar', () => {
    render(
      <ChatList
        tiles={[tile({ avatar: { ...avatar, face: { kind: 'emoji', emoji: '🦊' } } })]}
        loaded
        onOpen={() => {}}
      />,
    );
    expect(screen.getByText('🦊')).toBeInTheDocument();
  });
});

describe('ConversationHeader', () => {
  it("shows the title and presence; 'Позвонить' and 'Позвонить с видео' start calls", async () => {
    const onCall = vi.fn();
    render(<ConversationHeader header={header} onCall={onCall} />);
    expect(screen.getByRole('heading', { name: 'Борис' })).toBeInTheDocument();
    expect(screen.getByTestId('conversation-status')).toHaveTextContent('ОНЛАЙН');
    await userEvent.click(screen.getByRole('button', { name: 'Позвонить' }));
    await userEvent.click(screen.getByRole('button', { name: 'Позвонить с видео' }));
    expect(onCall.mock.calls).toEqual([[false], [true]]);
  });
});

describe('MessageBubble', () => {
  it('marks own messages with their delivery and shows ✓ once read', () => {
    const { rerender } = render(<MessageBubble {...bubbleProps({ row: row({ own: true, delivery: 'sent' }) })} />);
    const bubble = screen.getByTestId('message');
    expect(bubble).toHaveAttribute('data-message-id', 'm1');
    expect(bubble).toHaveAttribute('data-own', 'true');
    expect(bubble).toHaveAttribute('data-delivery', 'sent');
    expect(screen.queryByTestId('read-mark')).toBeNull();
    rerender(<MessageBubble {...bubbleProps({ row: row({ own: true, delivery: 'read' }) })} />);
    expect(screen.getByTestId('read-mark')).toHaveTextContent('✓');
    rerender(<MessageBubble {...bubbleProps({ row: row() })} />);
    expect(screen.getByTestId('message')).not.toHaveAttribute('data-own');
  });

  it("quotes as 'Ответ на: …' that jumps to the original", async () => {
    const props = bubbleProps({ row: row({ reply: { id: 'm0', preview: 'Исходное' } }) });
    render(<MessageBubble {...props} />);
    await userEvent.click(screen.getByRole('button', { name: 'Ответ на: Исходное' }));
    expect(props.onJump).toHaveBeenCalledWith('m0');
  });

  it("shows images at most 320 px wide (320×200 when broken) opening the lightbox, and files as 'Файл: name'", async () => {
    const props = bubbleProps({
      row: row({
        type: 'IMAGE',
        text: '',
        attachments: [
          { url: '/uploads/a', kind: 'IMAGE', name: 'горы.png', width: 1280, height: 800 },
          { url: '/uploads/b', kind: 'IMAGE', name: 'лес.png', width: 200, height: 100 },
          { url: '/uploads/c', kind: 'FILE', name: 'план.pdf', width: null, height: null },
        ],
      }),
    });
    render(<MessageBubble {...props} />);
    const [big, small] = screen.getAllByRole('img');
    expect(big).toHaveAttribute('width', '320');
    expect(big).toHaveAttribute('height', '200');
    expect(small).toHaveAttribute('width', '200');
    await userEvent.click(screen.getByRole('button', { name: 'Открыть изображение лес.png' }));
    expect(props.onOpenImage).toHaveBeenCalledWith('m1', 1);
    expect(screen.getByRole('link', { name: 'Файл: план.pdf' })).toHaveAttribute('href', '/uploads/c');
    fireEvent.error(big);
    const broken = screen.getByRole('button', { name: /горы\.png \(не загрузилось\)/ });
    expect(broken).toHaveStyle({ width: '320px', height: '200px' });
  });

  it('shows the server’s reason beside «Повторить» (a full disk), and «Не отправлено» when no answer came', async () => {
    const failed = (error: string | null) =>
      bubbleProps({
        row: row({
          id: 'tmp-t-1',
          own: true,
          delivery: 'failed',
          pending: { outboxId: 'tmp-t-1', progress: 0, uploading: false, files: [], error, retryable: true },
        }),
      });
    const { rerender } = render(<MessageBubble {...failed('На сервере закончилось место, повторите позже')} />);
    expect(screen.getByText('На сервере закончилось место, повторите позже')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Повторить' })).toBeVisible();
    rerender(<MessageBubble {...failed(null)} />);
    expect(screen.getByText('Не отправлено')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Повторить' })).toBeVisible();
  });

  it("keeps a failed send with 'Повторить' and 'Удалить', and an upload with per-file progress", async () => {
    const pending = {
      outboxId: 'tmp-t-1',
      progress: 40,
      uploading: true,
      files: [{ name: 'a.zip', progress: 40, done: false }],
      error: null,
      retryable: true,
    };
    const props = bubbleProps({
      row: row({
        id: 'tmp-t-1',
        own: true,
        delivery: 'failed',
        pending: { ...pending, uploading: false, error: 'upload failed' },
      }),
    });
    const { rerender } = render(<MessageBubble {...props} />);
    expect(screen.getByText('Файл не загрузился')).toHaveAttribute('data-error', 'upload failed');
    await userEvent.click(screen.getByRole('button', { name: 'Повторить' }));
    await userEvent.click(screen.getByRole('button', { name: 'Удалить' }));
    expect(props.onRetry).toHaveBeenCalledWith('tmp-t-1');
    expect(props.onRemove).toHaveBeenCalledWith('tmp-t-1');
    // Pending messages have no actions menu yet.
    expect(screen.queryByRole('button', { name: 'Действия с сообщением' })).toBeNull();
    rerender(<MessageBubble {...bubbleProps({ row: row({ own: true, delivery: 'sending', pending }) })} />);
    expect(screen.getByRole('progressbar', { name: 'Загрузка a.zip' })).toHaveAttribute('value', '40');
    expect(screen.queryByRole('button', { name: 'Повторить' })).toBeNull();
  });

  it('opens the menu by right click, the menu button, the context-menu key and Shift+F10', async () => {
    const props = bubbleProps();
    render(<MessageBubble {...props} />);
    const bubble = screen.getByTestId('message');
    fireEvent.contextMenu(bubble, { clientX: 10, clientY: 20 });
    expect(props.onMenu).toHaveBeenLastCalledWith(props.row, { x: 10, y: 20 }, bubble);
    const button = screen.getByRole('button', { name: 'Действия с сообщением' });
    await userEvent.click(button);
    expect(props.onMenu).toHaveBeenLastCalledWith(props.row, null, button);
    fireEvent.keyDown(button, { key: 'ContextMenu' });
    fireEvent.keyDown(button, { key: 'F10', shiftKey: true });
    expect(props.onMenu).toHaveBeenCalledTimes(4);
  });
});

describe('MessageMenu', () => {
  const row = (own: boolean) =>
    ({ id: 'm1', own, type: 'TEXT', text: 'Привет', editable: own }) as unknown as MessageRow;
  const none = { canPin: false, pinned: new Set<string>() };

  it('offers «Удалить» on own messages and «Скрыть у себя» on others (never «Удалить»), by keyboard', async () => {
    const opener = document.createElement('button');
    document.body.append(opener);
    const onAction = vi.fn();
    const onClose = vi.fn();
    const { rerender } = render(
      <MessageMenu
        at={null}
        opener={opener}
        items={menuItems(row(false), none)}
        onAction={onAction}
        onClose={onClose}
        onReact={vi.fn()}
      />,
    );
    expect(screen.getByRole('menuitem', { name: 'Цитировать' })).toHaveFocus();
    expect(screen.queryByRole('menuitem', { name: 'Удалить' })).toBeNull();
    expect(screen.getByRole('menuitem', { name: 'Скрыть у себя' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Информация' })).toBeNull();
    expect(screen.queryByRole('menuitem', { name: 'Закрепить' })).toBeNull();
    rerender(
      <MessageMenu
        at={null}
        opener={opener}
        items={menuItems(row(true), { canPin: true, pinned: new Set(['m1']) })}
        onAction={onAction}
        onClose={onClose}
        onReact={vi.fn()}
      />,
    );
    for (const name of ['Копировать текст', 'Переслать', 'Открепить', 'Выбрать', 'Информация', 'Изменить'])
      expect(screen.getByRole('menuitem', { name })).toBeInTheDocument();
    screen.getByRole('menuitem', { name: 'Изменить' }).focus();
    await userEvent.keyboard('{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: 'Удалить' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(onAction).toHaveBeenCalledWith('delete');
    expect(onClose).toHaveBeenCalled();
    expect(opener).toHaveFocus();
    screen.getByRole('menuitem', { name: 'Цитировать' }).focus();
    await userEvent.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(2);
    opener.remove();
  });
});

describe('Composer', () => {
  const composer = (over: Partial<ComposerProps> = {}): ComposerProps => ({
    text: '',
    reply: null,
    uploadProgress: null,
    onText: vi.fn(),
    onSubmit: vi.fn(),
    onClearReply: vi.fn(),
    onAttach: vi.fn(),
    ...over,
  });

  it("sends with Enter, not Shift+Enter; 'Напишите сообщение...'", async () => {
    const props = composer({ text: 'Привет' });
    render(<Composer {...props} />);
    const input = screen.getByPlaceholderText('Напишите сообщение...');
    await userEvent.type(input, '{Shift>}{Enter}{/Shift}');
    expect(props.onSubmit).not.toHaveBeenCalled();
    await userEvent.type(input, '{Enter}');
    expect(props.onSubmit).toHaveBeenCalledTimes(1);
    await userEvent.type(input, '!');
    expect(props.onText).toHaveBeenLastCalledWith('Привет!');
  });

  it("shows the reply banner 'Ответ на:' with its close button, and the upload progress bar", async () => {
    const props = composer({ reply: { preview: 'Исходное' }, uploadProgress: 35 });
    render(<Composer {...props} />);
    expect(screen.getByTestId('reply-banner')).toHaveTextContent('Ответ на: Исходное');
    await userEvent.click(screen.getByRole('button', { name: 'Отменить ответ' }));
    expect(props.onClearReply).toHaveBeenCalled();
    expect(screen.getByRole('progressbar', { name: 'Загрузка файлов' })).toHaveAttribute('value', '35');
  });

  it("'Прикрепить' picks files", async () => {
    const props = composer();
    render(<Composer {...props} />);
    expect(screen.getByRole('button', { name: 'Прикрепить' })).toBeInTheDocument();
    const file = new File(['x'], 'a.txt', { type: 'text/plain' });
    await userEvent.upload(screen.getByTestId('attach-input'), file);
    expect(props.onAttach).toHaveBeenCalledWith([file]);
  });
});

describe('TypingIndicator', () => {
  it('lights 1–3 of three dots next to who types', () => {
    const { rerender } = render(<TypingIndicator text="Анна печатает" dots={2} />);
    const box = screen.getByTestId('typing');
    expect(box).toHaveTextContent('Анна печатает');
    expect(box.querySelectorAll('i')).toHaveLength(3);
    expect(box.querySelectorAll('i.lit')).toHaveLength(2);
    rerender(<TypingIndicator text="" dots={1} />);
    expect(screen.getByTestId('typing')).toBeEmptyDOMElement();
  });
});

describe('ConversationView', () => {
  const view = (over: Partial<ConversationViewProps> = {}): ConversationViewProps => ({
    status: 'ready',
    header,
    rows: [],
    firstItemIndex: 1000,
    hasMore: false,
    loadingOlder: false,
    highlight: null,
    bottomSignal: 0,
    typing: { text: '', dots: 1 },
    composer: {
      text: '',
      reply: null,
      uploadProgress: null,
      onText() {},
      onSubmit() {},
      onClearReply() {},
      onAttach: vi.fn(),
    },
    lightbox: null,
    onCloseLightbox() {},
    onCall() {},
    onReply() {},
    onEdit() {},
    onReact() {},
    onRetryLoad: vi.fn(),
    onLoadOlder() {},
    onVisibleUnread() {},
    onAction() {},
    menuOptions: { canPin: false, pinned: new Set<string>() },
    onJump() {},
    onOpenImage() {},
    onRetry() {},
    onRemove() {},
    ...over,
  });

  it("says 'Выберите чат' without a selection and 'Сообщения появятся здесь' for an empty chat", () => {
    const { unmount } = render(<NoConversation />);
    expect(screen.getByText('Выберите чат')).toBeInTheDocument();
    unmount();
    render(<ConversationView {...view()} />);
    expect(screen.getByText('Сообщения появятся здесь')).toBeInTheDocument();
  });

  it('offers a retry when the history could not be loaded', async () => {
    const props = view({ status: 'failed' });
    render(<ConversationView {...props} />);
    await userEvent.click(screen.getByRole('button', { name: 'Повторить' }));
    expect(props.onRetryLoad).toHaveBeenCalled();
  });

  // jsdom has no layout, so the virtualized rows cannot be checked here; the browser tests check the rows and
  // that only part of a long history is in the DOM.
  it('puts the history in a keyboard-scrollable log region that is not read out as rows mount', () => {
    const rows = Array.from({ length: 30 }, (_, i) => row({ key: `m${i}`, id: `m${i}`, text: `Сообщение ${i}` }));
    render(<ConversationView {...view({ rows })} />);
    const log = screen.getByRole('log', { name: 'Сообщения' });
    expect(log).toHaveAttribute('tabindex', '0');
    expect(log).toHaveAttribute('aria-live', 'off');
    expect(screen.queryByText('Сообщения появятся здесь')).toBeNull();
  });

  it('takes dropped files', () => {
    const props = view();
    render(<ConversationView {...props} />);
    const file = new File(['x'], 'a.png', { type: 'image/png' });
    const pane = screen.getByRole('region', { name: 'Беседа: Борис' });
    const dataTransfer = { types: ['Files'], files: [file], dropEffect: 'none' };
    fireEvent.dragEnter(pane, { dataTransfer });
    expect(screen.getByText('Отпустите файлы, чтобы отправить')).toBeInTheDocument();
    fireEvent.drop(pane, { dataTransfer });
    expect(props.composer.onAttach).toHaveBeenCalledWith([file]);
  });
});
