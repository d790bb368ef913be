// Links (linkify-it, never HTML), day lines, the edited mark, reactions, the unread divider and the edit banner of
// the chats page, rendered from props (src/ui/conversation/MessageText.tsx, MessageReactions.tsx, MessageMarks.tsx,
// EditBanner.tsx, day-label.ts, linkify.ts).
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ChatList } from '../chats/ChatList';
import { Composer, type ComposerProps } from '../composer/Composer';
import { ConversationHeader } from './ConversationHeader';
import { EditHistoryContext } from './edit-history';
import { dayLabel } from './day-label';
import { linkSegments } from './linkify';
import { MessageBubble } from './MessageBubble';
import { messageRows, type MessageRow } from './view-model';
import { message, person } from '../../../tests/client/chat-fixtures';

const HOSTILE = [
  '<img src=x onerror="window.__pwned=1">',
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  '<a href="javascript:alert(1)">клик</a>',
  'vbscript:msgbox(1)',
];

const people = new Map([
  ['me', person('me', 'Я')],
  ['u2', person('u2', 'Анна')],
  ['u3', person('u3', 'Борис')],
]);
const rowsOf = (messages: ReturnType<typeof message>[], over: { unreadFrom?: string | null; now?: Date } = {}) =>
  messageRows(messages, [], { me: 'me', conversationId: 'c1', isGroup: true, people, ...over });
const bubble = (row: MessageRow, onReact = vi.fn()) =>
  render(
    <MessageBubble
      row={row}
      flash={0}
      onMenu={vi.fn()}
      onJump={vi.fn()}
      onOpenImage={vi.fn()}
      onRetry={vi.fn()}
      onRemove={vi.fn()}
      onReact={onReact}
    />,
  );

describe('links in message text', () => {
  it('finds http(s) URLs and bare domains, and keeps everything else text', () => {
    expect(linkSegments('см. https://example.org/a?b=1, ya.ru и http://x.test')).toEqual([
      { kind: 'text', text: 'см. ' },
      { kind: 'link', text: 'https://example.org/a?b=1', href: 'https://example.org/a?b=1' },
      { kind: 'text', text: ', ' },
      { kind: 'link', text: 'ya.ru', href: 'http://ya.ru/' },
      { kind: 'text', text: ' и ' },
      { kind: 'link', text: 'http://x.test', href: 'http://x.test/' },
    ]);
    for (const text of [...HOSTILE, 'mailto:a@b.ru', 'ftp://files.example.org/x', '//evil.example.org']) {
      expect(linkSegments(text).filter((s) => s.kind === 'link' && !/^https?:\/\//.test(s.href))).toEqual([]);
    }
    expect(linkSegments('mailto:a@b.ru ftp://files.example.org/x').every((s) => s.kind === 'text')).toBe(true);
  });

  it('renders links in a new tab with rel noopener noreferrer nofollow, and markup or script URLs as plain text', async () => {
    const text = `сайт example.org, ${HOSTILE.join(' ')}`;
    const { container } = bubble(rowsOf([message('m1', 'u2', 1, { content: text })])[0]);
    // The linkifier loads on demand; the text is plain text meanwhile.
    await waitFor(() => expect(container.querySelectorAll('a')).toHaveLength(1));
    const links = container.querySelectorAll('a');
    expect(links).toHaveLength(1);
    expect(links[0]).toHaveAttribute('href', 'http://example.org/');
    expect(links[0]).toHaveAttribute('target', '_blank');
    expect(links[0]).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    expect(container.querySelector('img, script')).toBeNull();
    expect(container.querySelector('.msg-text')).toHaveTextContent(text);
    expect((window as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it('shows markup in file names, display names and group titles as text', () => {
    const evil = HOSTILE[0];
    const withFile = message('m1', 'u2', 1, {
      type: 'FILE',
      content: '',
      attachments: [{ url: '/uploads/x', type: 'FILE', name: evil, size: 1, width: null, height: null }],
    });
    const { container } = bubble({ ...rowsOf([withFile])[0], senderName: evil, showSender: true });
    expect(container.querySelector('img')).toBeNull();
    expect(container).toHaveTextContent(`Файл: ${evil}`);
    expect(container.querySelector('.msg-sender')).toHaveTextContent(evil);
    const avatar = { face: { kind: 'initials' as const, text: '<' }, colour: '#2f57d1', presence: null };
    const list = render(
      <ChatList
        tiles={[{ id: 'c1', title: evil, avatar, subtitle: evil, unread: 0, active: false }]}
        loaded
        onOpen={() => {}}
      />,
    );
    expect(list.container.querySelector('img')).toBeNull();
    expect(list.container).toHaveTextContent(evil);
    const header = render(
      <ConversationHeader header={{ title: evil, avatar, status: evil, online: false }} onCall={() => {}} />,
    );
    expect(header.container.querySelector('img')).toBeNull();
    expect(header.container).toHaveTextContent(evil);
  });
});

describe('day lines', () => {
  const now = new Date(2026, 10, 23, 10, 0);
  it('says Сегодня, Вчера, the day and month, and the year only when it is not this one', () => {
    expect(dayLabel(new Date(2026, 10, 23, 0, 1), now)).toBe('Сегодня');
    expect(dayLabel(new Date(2026, 10, 22, 23, 59), now)).toBe('Вчера');
    expect(dayLabel(new Date(2026, 10, 12, 9, 0), now)).toBe('12 ноября');
    expect(dayLabel(new Date(2025, 2, 3, 9, 0), now)).toBe('3 марта 2025');
    expect(dayLabel(new Date(2026, 0, 1, 9, 0), new Date(2026, 0, 2, 1, 0))).toBe('Вчера');
    expect(dayLabel(new Date(2025, 11, 31, 9, 0), new Date(2026, 0, 1, 1, 0))).toBe('Вчера');
  });

  it('puts a line above the first message of each day and gives every row its day for the sticky line', () => {
    const at = (d: Date, id: string) => message(id, 'u2', 0, { createdAt: d.toISOString() });
    const rows = rowsOf(
      [at(new Date(2026, 10, 22, 9), 'a'), at(new Date(2026, 10, 22, 10), 'b'), at(new Date(2026, 10, 23, 9), 'c')],
      { now },
    );
    expect(rows.map((r) => r.day)).toEqual(['Вчера', null, 'Сегодня']);
    expect(rows.map((r) => r.dayOf)).toEqual(['Вчера', 'Вчера', 'Сегодня']);
  });
});

describe('edited mark, reactions and the unread divider', () => {
  it('marks an edited message «изменено» with the time in its title', () => {
    const edited = message('m1', 'u2', 1, { editedAt: new Date(2026, 10, 23, 9, 5).toISOString() });
    const row = rowsOf([edited], { now: new Date(2026, 10, 23, 10) })[0];
    bubble(row);
    expect(screen.getByTestId('edited-mark')).toHaveTextContent('изменено');
    expect(screen.getByTestId('edited-mark')).toHaveAttribute('title', 'изменено: сегодня в 09:05');
    expect(rowsOf([message('m2', 'u2', 1)])[0].edited).toBeNull();
  });

  it('«изменено» is a button that opens the history where a pane offers it, never on a secret message', () => {
    const open = vi.fn();
    const edited = message('m1', 'u2', 1, { editedAt: new Date(2026, 10, 23, 9, 5).toISOString() });
    const row = rowsOf([edited], { now: new Date(2026, 10, 23, 10) })[0];
    const { unmount } = render(
      <EditHistoryContext.Provider value={open}>
        <MessageBubble
          row={row}
          flash={0}
          onMenu={vi.fn()}
          onJump={vi.fn()}
          onOpenImage={vi.fn()}
          onRetry={vi.fn()}
          onRemove={vi.fn()}
          onReact={vi.fn()}
        />
      </EditHistoryContext.Provider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'изменено: сегодня в 09:05. История изменений' }));
    expect(open).toHaveBeenCalledWith('m1');
    unmount();
    const secret = {
      ...row,
      encrypted: { conversationId: 'c1', ciphertext: 'x', createdAt: edited.createdAt, senderId: 'u2' },
    };
    render(
      <EditHistoryContext.Provider value={open}>
        <MessageBubble
          row={secret}
          flash={0}
          onMenu={vi.fn()}
          onJump={vi.fn()}
          onOpenImage={vi.fn()}
          onRetry={vi.fn()}
          onRemove={vi.fn()}
          onReact={vi.fn()}
        />
      </EditHistoryContext.Provider>,
    );
    expect(screen.getByTestId('edited-mark').tagName).toBe('SPAN');
  });

  it('lists reactions with counts, one’s own pressed, the names in the tooltip and accessible name; a click toggles', () => {
    const m = message('m1', 'u2', 1, {
      reactions: [
        { emoji: '👍', userIds: ['u2', 'me'] },
        { emoji: '😂', userIds: ['u3'] },
      ],
    });
    const onReact = vi.fn();
    bubble(rowsOf([m])[0], onReact);
    const mine = screen.getByRole('button', { name: '👍 2: Анна, Я (ваша реакция)' });
    expect(mine).toHaveAttribute('aria-pressed', 'true');
    expect(mine).toHaveAttribute('title', 'Анна, Я');
    const theirs = screen.getByRole('button', { name: '😂 1: Борис' });
    expect(theirs).toHaveAttribute('aria-pressed', 'false');
    fireEvent.click(mine);
    expect(onReact).toHaveBeenLastCalledWith('m1', '👍');
    fireEvent.click(screen.getByRole('button', { name: 'Поставить реакцию' }));
    const set = screen.getByRole('group', { name: 'Реакции' });
    expect(within(set).getAllByRole('button')).toHaveLength(6);
    fireEvent.click(within(set).getByRole('button', { name: 'Реакция 🙏' }));
    expect(onReact).toHaveBeenLastCalledWith('m1', '🙏');
  });

  it('draws «Непрочитанные сообщения» above the first message unread at opening, once', () => {
    const rows = rowsOf([message('m1', 'u2', 1), message('m2', 'u2', 2), message('m3', 'u2', 3)], { unreadFrom: 'm2' });
    expect(rows.map((r) => r.unreadDivider)).toEqual([false, true, false]);
    bubble(rows[1]);
    expect(screen.getByTestId('unread-divider')).toHaveTextContent('Непрочитанные сообщения');
  });

  it('offers editing on own delivered messages with text only', () => {
    const rows = rowsOf([
      message('m1', 'me', 1),
      message('m2', 'u2', 2),
      message('m3', 'me', 3, { type: 'IMAGE', content: '' }),
      message('m4', 'me', 4, { type: 'IMAGE', content: 'подпись' }),
    ]);
    expect(rows.map((r) => r.editable)).toEqual([true, false, false, true]);
  });
});

describe('the composer while editing', () => {
  const props = (over: Partial<ComposerProps> = {}): ComposerProps => ({
    text: '',
    reply: null,
    uploadProgress: null,
    onText: vi.fn(),
    onSubmit: vi.fn(),
    onClearReply: vi.fn(),
    onAttach: vi.fn(),
    onEditLast: vi.fn(),
    onCancelEdit: vi.fn(),
    ...over,
  });

  it('edits the last own message on ↑ in an empty composer only', () => {
    const p = props();
    const { rerender } = render(<Composer {...p} />);
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Сообщение' }), { key: 'ArrowUp' });
    expect(p.onEditLast).toHaveBeenCalledTimes(1);
    rerender(<Composer {...p} text="черновик" />);
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Сообщение' }), { key: 'ArrowUp' });
    expect(p.onEditLast).toHaveBeenCalledTimes(1);
  });

  it('shows «Редактирование» with the original text and the server’s message; Enter saves, Escape and the close button cancel', async () => {
    const p = props({ text: 'новый текст', edit: { original: 'старый текст', error: 'Сообщение не найдено' } });
    render(<Composer {...p} />);
    const banner = await screen.findByTestId('edit-banner'); // the banner's code loads with the first edit
    expect(banner).toHaveTextContent('Редактирование');
    expect(banner).toHaveTextContent('старый текст');
    expect(within(banner).getByRole('alert')).toHaveTextContent('Сообщение не найдено');
    const input = screen.getByRole('textbox', { name: 'Сообщение' });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(p.onSubmit).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(input, { key: 'Escape' });
    fireEvent.click(screen.getByRole('button', { name: 'Отменить редактирование' }));
    expect(p.onCancelEdit).toHaveBeenCalledTimes(2);
    fireEvent.keyDown(input, { key: 'ArrowUp' });
    expect(p.onEditLast).not.toHaveBeenCalled();
  });
});
