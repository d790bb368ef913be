// «Ссылки на звонки» rendered from props: the links with who made them and until when, copy and revoke, a new link
// for the chosen term, the administrator's switch, and a group's «Кто впускает гостей».
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CALL_LINKS_OFF, CallLinks } from './CallLinks';
import type { GuestLinksView } from './useGuestLinks';

const link = (code: string, over: Partial<GuestLinksView['links'][number]> = {}) => ({
  code,
  url: `https://beseda.example/g/${code}`,
  by: 'Анна',
  expiresAt: new Date(2030, 0, 2, 9, 5).toISOString(),
  copied: false,
  canRevoke: true,
  ...over,
});

const view = (over: Partial<GuestLinksView> = {}): GuestLinksView => ({
  links: [],
  enabled: true,
  adminsOnly: false,
  admission: null,
  busy: false,
  error: null,
  onCreate: vi.fn(),
  onCopy: vi.fn(),
  onRevoke: vi.fn(),
  onAdmission: vi.fn(),
  ...over,
});

describe('«Ссылки на звонки»', () => {
  it('lists the live links with who made them and until when; copies and revokes', async () => {
    const onCopy = vi.fn();
    const onRevoke = vi.fn();
    render(
      <CallLinks
        {...view({
          links: [link('aaa', { by: 'Вы' }), link('bbb', { canRevoke: false, copied: true })],
          onCopy,
          onRevoke,
        })}
      />,
    );
    expect(screen.getByRole('heading', { name: 'Ссылки на звонки' })).toBeInTheDocument();
    const [mine, theirs] = screen.getAllByTestId('call-link');
    expect(mine).toHaveTextContent('https://beseda.example/g/aaa');
    expect(mine).toHaveTextContent('Вы · до 02.01.2030 в 09:05');
    await userEvent.click(within(mine).getByRole('button', { name: /^Копировать/ }));
    expect(onCopy).toHaveBeenCalledWith('aaa');
    await userEvent.click(within(mine).getByRole('button', { name: /^Отозвать/ }));
    expect(onRevoke).toHaveBeenCalledWith('aaa');
    // Another member's link in a group where only the owner and admins decide: copied, not revocable.
    expect(theirs).toHaveTextContent('Анна');
    expect(within(theirs).getByRole('button', { name: 'Скопировано' })).toBeInTheDocument();
    expect(within(theirs).queryByRole('button', { name: /Отозвать/ })).toBeNull();
  });

  it('makes a link for the chosen term, a day unless chosen otherwise', async () => {
    const onCreate = vi.fn();
    render(<CallLinks {...view({ onCreate })} />);
    expect(screen.getByText('Действующих ссылок нет')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Создать ссылку' }));
    expect(onCreate).toHaveBeenLastCalledWith(24);
    await userEvent.selectOptions(screen.getByLabelText('Срок'), '7 дней');
    await userEvent.click(screen.getByRole('button', { name: 'Создать ссылку' }));
    expect(onCreate).toHaveBeenLastCalledWith(168);
  });

  it('says when the administrator turned guest links off, and offers no new link', () => {
    render(<CallLinks {...view({ enabled: false, links: [link('aaa')] })} />);
    expect(screen.getByText(CALL_LINKS_OFF)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Создать ссылку' })).toBeNull();
    expect(screen.getByRole('button', { name: /^Отозвать/ })).toBeInTheDocument();
  });

  it('lets a group’s owner and admins choose who lets guests in; tells the others', async () => {
    const onAdmission = vi.fn();
    const { rerender } = render(<CallLinks {...view({ admission: 'choice', onAdmission })} />);
    const group = screen.getByRole('group', { name: 'Кто впускает гостей' });
    expect(within(group).getByRole('radio', { name: 'Любой участник' })).toBeChecked();
    await userEvent.click(within(group).getByRole('radio', { name: 'Только владелец и администраторы' }));
    expect(onAdmission).toHaveBeenCalledWith(true);
    rerender(<CallLinks {...view({ admission: 'note', adminsOnly: true })} />);
    expect(screen.queryByRole('group', { name: 'Кто впускает гостей' })).toBeNull();
    expect(screen.getByText('Гостей впускают только владелец и администраторы')).toBeInTheDocument();
    rerender(<CallLinks {...view({ admission: null, adminsOnly: true })} />);
    expect(screen.queryByText('Гостей впускают только владелец и администраторы')).toBeNull();
  });

  it('shows the server’s refusal', () => {
    render(<CallLinks {...view({ error: 'Не удалось загрузить ссылки на звонки' })} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Не удалось загрузить ссылки на звонки');
  });
});
