// The contacts feature's views rendered from props (and the EBLID panel over a real contactCode actor).
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useSelector } from '@xstate/react';
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { Contact, PublicUser } from '../../contract/entities';
import { RequestFailure } from '../../contract/failure';
import { contactCodeMachine, SEARCH_LIMITED } from '../../machines/contacts/contactCode/contactCode.machine';
import { ChatsFooterView } from '../chats/ChatsFooter';
import { ContactCodePanel } from './ContactCodePanel';
import { ContactsDialog, type ContactsDialogProps } from './ContactsDialog';
import { ContactsPageView, type ContactsPageViewProps } from './ContactsPage';
import { GroupDialog, type GroupDialogProps } from './GroupDialog';

const person = (id: string, displayName: string, extra: Partial<PublicUser> = {}): PublicUser => ({
  id,
  username: id,
  displayName,
  avatarUrl: null,
  status: 'ONLINE',
  lastSeenAt: null,
  eblid: '1234',
  bio: null,
  ...extra,
});
const boris = person('u2', 'Борис');
const vera = person('u3', 'Вера', { avatarUrl: '/uploads/v.webp' });
const gleb = person('u4', 'Глеб', { status: 'OFFLINE' });
const request: Contact = { id: 'c1', status: 'PENDING', direction: 'incoming', friend: boris };
const friendVera: Contact = { id: 'c2', status: 'ACCEPTED', direction: 'outgoing', friend: vera };
const outgoingGleb: Contact = { id: 'c3', status: 'PENDING', direction: 'outgoing', friend: gleb };

const codeProps = {
  digits: ['', '', '', ''],
  focus: 0,
  result: null,
  notice: null,
  searching: false,
  busy: false,
  onType: vi.fn(),
  onBackspace: vi.fn(),
  onPaste: vi.fn(),
  onFocusBox: vi.fn(),
  onAdd: vi.fn(),
};

/** The panel over a real contactCode actor, as the app wires it (search answered by `search`). */
function renderCodePanel(search: (code: string) => Promise<{ code: string; user: PublicUser | null }>) {
  const actor = createActor(
    contactCodeMachine.provide({
      actors: { search: fromPromise(({ input }) => search((input as { code: string }).code)) as never },
    }),
  ).start();
  function Panel() {
    const s = useSelector(actor, (snap) => snap);
    return (
      <ContactCodePanel
        digits={s.context.digits}
        focus={s.context.focus}
        result={s.context.result}
        notice={s.context.notice}
        searching={s.hasTag('searching')}
        busy={s.hasTag('busy')}
        onType={(index, value) => actor.send({ type: 'code.typed', index, value })}
        onBackspace={(index) => actor.send({ type: 'code.backspace', index })}
        onPaste={(text) => actor.send({ type: 'code.pasted', text })}
        onFocusBox={(index) => actor.send({ type: 'code.focused', index })}
        onAdd={() => actor.send({ type: 'code.add' })}
      />
    );
  }
  render(<Panel />);
  return actor;
}

describe('EBLID panel', () => {
  it('reads as one group "EBLID" of four labelled boxes', () => {
    render(<ContactCodePanel {...codeProps} />);
    const group = screen.getByRole('group', { name: 'EBLID' });
    const boxes = within(group).getAllByRole('textbox');
    expect(boxes.map((b) => b.getAttribute('aria-label'))).toEqual([
      'Цифра 1 из 4',
      'Цифра 2 из 4',
      'Цифра 3 из 4',
      'Цифра 4 из 4',
    ]);
    expect(screen.getByRole('heading', { name: 'Поиск по EBLID' })).toBeInTheDocument();
  });

  it('typing strips non-digits and moves forward, Backspace goes back, a complete code searches and shows the user', async () => {
    const searched: string[] = [];
    renderCodePanel(async (code) => {
      searched.push(code);
      return { code, user: boris };
    });
    const boxes = screen.getAllByRole('textbox');
    await userEvent.click(boxes[0]);
    await userEvent.keyboard('1a2');
    expect(boxes.map((b) => (b as HTMLInputElement).value)).toEqual(['1', '2', '', '']);
    expect(boxes[2]).toHaveFocus();
    await userEvent.keyboard('{Backspace}');
    expect(boxes[1]).toHaveFocus();
    expect((boxes[1] as HTMLInputElement).value).toBe('');
    await userEvent.keyboard('734');
    expect(boxes.map((b) => (b as HTMLInputElement).value)).toEqual(['1', '7', '3', '4']);
    expect(await screen.findByText('Найден по EBLID')).toBeInTheDocument();
    expect(screen.getByText('Борис')).toBeInTheDocument();
    expect(searched).toEqual(['1734']);
    // Breaking the code clears the result.
    await userEvent.keyboard('{Backspace}');
    expect(screen.queryByText('Найден по EBLID')).not.toBeInTheDocument();
  });

  it('a pasted four-digit code fills every box; the search limit shows a short message', async () => {
    renderCodePanel(async () => {
      // What the API client throws for the server's 429.
      throw new RequestFailure(429, null);
    });
    const boxes = screen.getAllByRole('textbox');
    boxes[0].focus();
    fireEvent.paste(boxes[0], { clipboardData: { getData: () => ' 98-76 ' } });
    expect(boxes.map((b) => (b as HTMLInputElement).value)).toEqual(['9', '8', '7', '6']);
    expect(boxes[3]).toHaveFocus();
    expect(await screen.findByRole('alert')).toHaveTextContent(SEARCH_LIMITED);
  });

  it('the found tile adds; Enter in a complete code adds too', async () => {
    const onAdd = vi.fn();
    render(<ContactCodePanel {...codeProps} digits={['1', '2', '3', '4']} result={boris} onAdd={onAdd} />);
    await userEvent.click(screen.getByRole('button', { name: 'Добавить' }));
    screen.getAllByRole('textbox')[3].focus();
    await userEvent.keyboard('{Enter}');
    expect(onAdd).toHaveBeenCalledTimes(2);
  });
});

describe('contacts dialog', () => {
  const props = (over: Partial<ContactsDialogProps> = {}): ContactsDialogProps => ({
    eblid: '0420',
    incoming: [request],
    friends: [friendVera],
    busy: false,
    error: null,
    code: codeProps,
    copied: false,
    onCopy: vi.fn(),
    onAccept: vi.fn(),
    onReject: vi.fn(),
    onRemove: vi.fn(),
    onOpenChat: vi.fn(),
    onClose: vi.fn(),
    ...over,
  });

  it("shows requests ('хочет добавить вас'), the search, 'Мой EBLID:' with a copy button, and friends", async () => {
    const p = props();
    render(<ContactsDialog {...p} />);
    const dialog = screen.getByRole('dialog', { name: 'Контакты' });
    expect(within(dialog).getByRole('heading', { name: 'Новые запросы' })).toBeInTheDocument();
    const requests = within(dialog).getAllByRole('list')[0];
    expect(within(requests).getByText('Борис')).toBeInTheDocument();
    expect(within(requests).getByText('хочет добавить вас')).toBeInTheDocument();
    await userEvent.click(within(requests).getByRole('button', { name: 'Отклонить' }));
    await userEvent.click(within(requests).getByRole('button', { name: 'Добавить' }));
    expect(p.onReject).toHaveBeenCalledWith('c1');
    expect(p.onAccept).toHaveBeenCalledWith('c1');
    // The buttons say whom they are about.
    expect(within(requests).getByRole('button', { name: 'Добавить' })).toHaveAccessibleDescription('Борис');

    expect(within(dialog).getByRole('group', { name: 'EBLID' })).toBeInTheDocument();
    expect(within(dialog).getByText(/Мой EBLID:/)).toHaveTextContent('Мой EBLID: 0420');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Копировать' }));
    expect(p.onCopy).toHaveBeenCalled();

    expect(within(dialog).getByRole('heading', { name: 'Мои друзья' })).toBeInTheDocument();
    const friends = within(dialog).getAllByRole('list')[1];
    expect(friends).toHaveClass('friends-list');
    expect(within(friends).getByText('Вера')).toBeInTheDocument();
    expect(within(friends).getByText('ОНЛАЙН')).toBeInTheDocument();
    await userEvent.click(within(friends).getByRole('button', { name: 'Удалить' }));
    await userEvent.click(within(friends).getByRole('button', { name: 'Открыть чат' }));
    expect(p.onRemove).toHaveBeenCalledWith('c2');
    expect(p.onOpenChat).toHaveBeenCalledWith('u3');
  });

  it('says when there is nothing, shows a copied note and an error, and closes with Escape', async () => {
    const p = props({ incoming: [], friends: [], copied: true, error: 'Запрос уже принят' });
    render(<ContactsDialog {...p} />);
    expect(screen.getByText('Нет новых запросов')).toBeInTheDocument();
    expect(screen.getByText('Пока нет друзей')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Скопировано');
    expect(screen.getByRole('alert')).toHaveTextContent('Запрос уже принят');
    await userEvent.keyboard('{Escape}');
    expect(p.onClose).toHaveBeenCalled();
  });

  it('moves the focus into the dialog, keeps Tab inside, and gives it back on close', async () => {
    const opener = document.createElement('button');
    document.body.append(opener);
    opener.focus();
    const p = props({ incoming: [], friends: [] });
    const view = render(<ContactsDialog {...p} />);
    const dialog = screen.getByRole('dialog');
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    expect(screen.getAllByRole('textbox')[0]).toHaveFocus(); // the first control of the content
    for (let i = 0; i < 8; i++) await userEvent.tab();
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    await userEvent.tab({ shift: true });
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    view.unmount();
    expect(opener).toHaveFocus();
    opener.remove();
  });
});

describe('contacts page', () => {
  const props = (over: Partial<ContactsPageViewProps> = {}): ContactsPageViewProps => ({
    contacts: [request, friendVera, outgoingGleb],
    loaded: true,
    filter: 'all',
    busy: false,
    error: null,
    added: null,
    onFilter: vi.fn(),
    onAdd: vi.fn(),
    onAccept: vi.fn(),
    onReject: vi.fn(),
    onStartChat: vi.fn(),
    ...over,
  });

  it('has the heading, the four filters, and a row per contact with its lowercased status and actions', async () => {
    const p = props();
    render(<ContactsPageView {...p} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Контакты' })).toBeInTheDocument();
    const filter = screen.getByRole('combobox', { name: 'Показать' });
    expect(
      within(filter)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Друзья', 'Входящие', 'Исходящие', 'Все']);
    await userEvent.selectOptions(filter, 'Входящие');
    expect(p.onFilter).toHaveBeenCalledWith('incoming');

    const rows = within(screen.getByRole('list', { name: 'Список контактов' })).getAllByRole('listitem');
    expect(rows).toHaveLength(3);
    const [b, v, g] = rows;
    expect(b).toHaveTextContent('Борис');
    expect(within(b).getByText('pending')).toBeInTheDocument();
    await userEvent.click(within(b).getByRole('button', { name: 'Принять' }));
    await userEvent.click(within(b).getByRole('button', { name: 'Отклонить' }));
    expect(within(v).getByText('accepted')).toBeInTheDocument();
    await userEvent.click(within(v).getByRole('button', { name: 'Начать чат' }));
    expect(within(g).getByText('ожидание подтверждения…')).toBeInTheDocument();
    expect(within(g).queryByRole('button')).not.toBeInTheDocument();
    expect(p.onAccept).toHaveBeenCalledWith('c1');
    expect(p.onReject).toHaveBeenCalledWith('c1');
    expect(p.onStartChat).toHaveBeenCalledWith('u3');
  });

  it("a friend's own status shows on their row, nothing when there is none", () => {
    const withStatus: Contact = {
      ...friendVera,
      friend: { ...vera, customStatus: { emoji: '🌴', text: 'В отпуске', expiresAt: null } },
    };
    render(<ContactsPageView {...props({ contacts: [withStatus, request] })} />);
    const [v, b] = within(screen.getByRole('list', { name: 'Список контактов' })).getAllByRole('listitem');
    expect(within(v).getByTestId('contact-custom-status')).toHaveTextContent('🌴 В отпуске');
    expect(within(b).queryByTestId('contact-custom-status')).toBeNull();
  });

  it("the add form needs 'ID / ник / email', sends it trimmed, and is cleared after a success", async () => {
    const p = props();
    const view = render(<ContactsPageView {...p} />);
    const field = screen.getByRole('textbox', { name: 'ID / ник / email' });
    expect(field).toBeRequired();
    await userEvent.type(field, '   ');
    await userEvent.click(screen.getByRole('button', { name: 'Добавить' }));
    expect(p.onAdd).not.toHaveBeenCalled();
    await userEvent.clear(field);
    await userEvent.type(field, ' @boris {Enter}');
    expect(p.onAdd).toHaveBeenCalledWith('@boris');
    view.rerender(<ContactsPageView {...p} added={{ text: 'Запрос отправлен' }} />);
    expect(field).toHaveValue('');
    expect(screen.getByText('Запрос отправлен')).toBeInTheDocument();
    view.rerender(<ContactsPageView {...p} error="Пользователь не найден" />);
    expect(screen.getByRole('alert')).toHaveTextContent('Пользователь не найден');
  });

  it('says what is empty', () => {
    render(<ContactsPageView {...props({ contacts: [], filter: 'incoming' })} />);
    expect(screen.getByText('Пусто: входящие')).toBeInTheDocument();
  });
});

describe('group dialog', () => {
  const props = (over: Partial<GroupDialogProps> = {}): GroupDialogProps => ({
    title: '',
    selected: ['u3'],
    busy: false,
    error: null,
    friends: [boris, vera],
    onClose: vi.fn(),
    onToggle: vi.fn(),
    onTitle: vi.fn(),
    onCreate: vi.fn(),
    ...over,
  });

  it("has 'Название', friends to tick reading 'Выбрано' / 'Нажмите, чтобы выбрать', 'Отмена' and 'Создать'", async () => {
    const p = props();
    render(<GroupDialog {...p} />);
    const dialog = screen.getByRole('dialog', { name: 'Создать групповой чат' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Название' }), 'Д');
    expect(p.onTitle).toHaveBeenCalledWith('Д');
    const borisBox = within(dialog).getByRole('checkbox', { name: /Борис/ });
    const veraBox = within(dialog).getByRole('checkbox', { name: /Вера/ });
    expect(borisBox).not.toBeChecked();
    expect(veraBox).toBeChecked();
    expect(borisBox.closest('label')).toHaveTextContent('Нажмите, чтобы выбрать');
    expect(veraBox.closest('label')).toHaveTextContent('Выбрано');
    await userEvent.click(borisBox);
    expect(p.onToggle).toHaveBeenCalledWith('u2');
    // Space on the focused checkbox ticks it too.
    veraBox.focus();
    await userEvent.keyboard(' ');
    expect(p.onToggle).toHaveBeenCalledWith('u3');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Создать' }));
    expect(p.onCreate).toHaveBeenCalled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Отмена' }));
    expect(p.onClose).toHaveBeenCalled();
  });

  it('is busy while creating and shows the refusal', () => {
    render(<GroupDialog {...props({ busy: true, error: 'В беседу можно добавить только друзей' })} />);
    expect(screen.getByRole('button', { name: 'Создать' })).toBeDisabled();
    expect(screen.getByRole('alert')).toHaveTextContent('В беседу можно добавить только друзей');
  });
});

describe('chats footer', () => {
  const me = { ...person('me', 'Анна Петрова'), eblid: '0420', email: null, role: 'member' as const };
  it.each([['Новый запрос в друзья'], ['Список контактов'], ['Добавить контакт']])(
    'shows the tiles with the contacts subtitle %s and opens the dialogs',
    async (subtitle) => {
      const handlers = { onNewChat: vi.fn(), onContacts: vi.fn(), onProfile: vi.fn() };
      render(
        <ChatsFooterView me={me} contactsSubtitle={subtitle} hasIncoming={false} code={codeProps} {...handlers} />,
      );
      await userEvent.click(screen.getByRole('button', { name: 'Новая беседа' }));
      // jsdom drops the space of the hidden ', ' that browsers keep.
      const contacts = screen.getByRole('button', { name: new RegExp(`^Контакты,\\s?${subtitle}$`) });
      await userEvent.click(contacts);
      const own = screen.getByRole('button', { name: /^Профиль:\s?Анна Петрова,\s?EBLID 0420$/ });
      expect(own).toHaveTextContent('Анна Петрова');
      expect(own).toHaveTextContent('EBLID 0420');
      await userEvent.click(own);
      expect(handlers.onNewChat).toHaveBeenCalled();
      expect(handlers.onContacts).toHaveBeenCalled();
      expect(handlers.onProfile).toHaveBeenCalled();
    },
  );

  it('holds the EBLID panel, folded until asked for', async () => {
    render(
      <ChatsFooterView
        me={me}
        contactsSubtitle="Добавить контакт"
        hasIncoming={false}
        code={codeProps}
        onNewChat={vi.fn()}
        onContacts={vi.fn()}
        onProfile={vi.fn()}
      />,
    );
    const summary = screen.getByText('Поиск по EBLID');
    expect(summary.closest('details')).not.toHaveAttribute('open');
    await act(async () => {
      summary.click();
    });
    expect(summary.closest('details')).toHaveAttribute('open');
    expect(await screen.findByRole('group', { name: 'EBLID' })).toBeInTheDocument();
  });
});
