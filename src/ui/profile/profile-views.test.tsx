// The profile dialog (avatar editor) and the settings page rendered from props.
import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { User } from '../../contract/entities';
import { ProfileDialog } from './ProfileDialog';
import type { AvatarEditorView } from './useAvatarEditor';
import { SettingsPageView, type SettingsPageViewProps } from '../settings/SettingsPage';

const me: User = {
  id: 'me',
  username: 'anna',
  displayName: 'Анна Петрова',
  avatarUrl: null,
  status: 'AWAY',
  lastSeenAt: null,
  eblid: '0420',
  bio: 'Люблю чай',
  email: null,
  role: 'member',
};

const avatar = (over: Partial<AvatarEditorView> = {}): AvatarEditorView => ({
  stage: 'idle',
  source: null,
  crop: { x: 0, y: 0 },
  zoom: 1,
  error: null,
  onFile: vi.fn(),
  onMove: vi.fn(),
  onZoom: vi.fn(),
  onArea: vi.fn(),
  onUpload: vi.fn(),
  onCancel: vi.fn(),
  ...over,
});
const PIXEL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

describe('profile dialog', () => {
  it("shows the avatar, the EBLID and the upload area (images only); 'Закрыть' closes", async () => {
    const a = avatar();
    const onClose = vi.fn();
    render(<ProfileDialog me={me} avatar={a} onClose={onClose} />);
    const dialog = screen.getByRole('dialog', { name: 'Профиль' });
    expect(within(dialog).getByText('Анна Петрова')).toBeInTheDocument();
    expect(within(dialog).getByText('0420')).toBeInTheDocument();
    const input = within(dialog).getByLabelText('Перетащите файл сюда или нажмите, чтобы выбрать') as HTMLInputElement;
    expect(input.type).toBe('file');
    expect(input.accept).toBe('image/*');
    const file = new File(['x'], 'me.png', { type: 'image/png' });
    await userEvent.upload(input, file);
    expect(a.onFile).toHaveBeenCalledWith(file);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Закрыть' }));
    expect(onClose).toHaveBeenCalled();
  });

  it('shows my own status and until when under my name; nothing when none is set', () => {
    const at = new Date();
    at.setHours(18, 30, 0, 0);
    const { rerender } = render(<ProfileDialog me={me} avatar={avatar()} onClose={vi.fn()} />);
    expect(screen.queryByTestId('profile-custom-status')).toBeNull();
    const customStatus = { emoji: '🌴', text: 'В отпуске', expiresAt: at.toISOString() };
    rerender(<ProfileDialog me={{ ...me, customStatus }} avatar={avatar()} onClose={vi.fn()} />);
    expect(screen.getByTestId('profile-custom-status')).toHaveTextContent('🌴 В отпуске · до 18:30');
  });

  it('takes a dropped file', () => {
    const a = avatar();
    render(<ProfileDialog me={me} avatar={a} onClose={vi.fn()} />);
    const area = screen.getByText('Перетащите файл сюда или нажмите, чтобы выбрать').closest('label')!;
    const file = new File(['x'], 'me.png', { type: 'image/png' });
    const drop = new Event('drop', { bubbles: true }) as Event & { dataTransfer: unknown };
    drop.dataTransfer = { files: [file] };
    area.dispatchEvent(drop);
    expect(a.onFile).toHaveBeenCalledWith(file);
  });

  it("edits with a round 220 px window and 'Масштаб' 0.5–2 step 0.01, 'Отмена' and 'Загрузить'", async () => {
    const a = avatar({ stage: 'editing', source: PIXEL, zoom: 1.25 });
    const { container } = render(<ProfileDialog me={me} avatar={a} onClose={vi.fn()} />);
    expect(screen.queryByText('Перетащите файл сюда или нажмите, чтобы выбрать')).not.toBeInTheDocument();
    const slider = screen.getByRole('slider', { name: 'Масштаб' });
    expect(slider).toHaveAttribute('min', '0.5');
    expect(slider).toHaveAttribute('max', '2');
    expect(slider).toHaveAttribute('step', '0.01');
    expect(slider).toHaveValue('1.25');
    fireEvent.change(slider, { target: { value: '1.26' } });
    expect(a.onZoom).toHaveBeenCalledWith(1.26);
    expect(container.ownerDocument.querySelector('.crop-stage')).not.toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Отмена' }));
    await userEvent.click(screen.getByRole('button', { name: 'Загрузить' }));
    expect(a.onCancel).toHaveBeenCalled();
    expect(a.onUpload).toHaveBeenCalled();
  });

  it("reads 'Загрузка...' and is locked while working; 'Готово' after; a failure says so", () => {
    const view = render(<ProfileDialog me={me} avatar={avatar({ stage: 'busy', source: PIXEL })} onClose={vi.fn()} />);
    expect(screen.getByRole('button', { name: 'Загрузка...' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Отмена' })).toBeDisabled();
    expect(screen.getByRole('slider', { name: 'Масштаб' })).toBeDisabled();
    view.rerender(<ProfileDialog me={me} avatar={avatar({ stage: 'done' })} onClose={vi.fn()} />);
    expect(screen.getByRole('status')).toHaveTextContent('Готово');
    view.rerender(
      <ProfileDialog
        me={me}
        avatar={avatar({ stage: 'idle', error: 'Можно выбрать только изображение' })}
        onClose={vi.fn()}
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Можно выбрать только изображение');
  });
});

describe('settings page', () => {
  const props = (over: Partial<SettingsPageViewProps> = {}): SettingsPageViewProps => ({
    me,
    loaded: true,
    busy: false,
    saved: false,
    error: null,
    onSave: vi.fn(),
    ...over,
  });

  it("'Профиль' with Имя, Статус (Russian labels), О себе, filled from the own record; 'Сохранить' sends them", async () => {
    const p = props();
    render(<SettingsPageView {...p} />);
    const form = screen.getByRole('form', { name: 'Профиль' });
    const name = within(form).getByRole('textbox', { name: 'Имя' });
    const status = within(form).getByRole('combobox', { name: 'Статус' });
    const bio = within(form).getByRole('textbox', { name: 'О себе' });
    expect(name).toHaveValue('Анна Петрова');
    expect(name).toBeRequired();
    expect(status).toHaveValue('AWAY');
    expect(
      within(status)
        .getAllByRole('option')
        .map((o) => [o.getAttribute('value'), o.textContent]),
    ).toEqual([
      ['ONLINE', 'ОНЛАЙН'],
      ['AWAY', 'Отошел'],
      ['DND', 'Не беспокоить'],
      ['OFFLINE', 'Оффлайн'],
    ]);
    expect(bio).toHaveValue('Люблю чай');
    await userEvent.clear(name);
    await userEvent.type(name, 'Анна К.');
    await userEvent.selectOptions(status, 'Не беспокоить');
    await userEvent.clear(bio);
    // «Кто может мне писать»: the three choices, «Участники общих групп» until one is made.
    const privacy = within(form).getByRole('combobox', { name: 'Кто может мне писать' });
    expect(privacy).toHaveValue('groups');
    expect(
      within(privacy)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Все участники сервера', 'Участники общих групп', 'Только друзья']);
    await userEvent.selectOptions(privacy, 'Только друзья');
    await userEvent.click(within(form).getByRole('button', { name: 'Сохранить' }));
    expect(p.onSave).toHaveBeenCalledWith({
      displayName: 'Анна К.',
      status: 'DND',
      bio: '',
      messagePrivacy: 'friends',
    });
  });

  it('follows a new own record, shows saved and errors, and is locked while saving', () => {
    const view = render(<SettingsPageView {...props()} />);
    view.rerender(<SettingsPageView {...props({ me: { ...me, displayName: 'Аня' }, saved: true })} />);
    expect(screen.getByRole('textbox', { name: 'Имя' })).toHaveValue('Аня');
    expect(screen.getByRole('status')).toHaveTextContent('Сохранено');
    view.rerender(<SettingsPageView {...props({ busy: true, error: 'Имя — не короче 2 символов' })} />);
    expect(screen.getByRole('button', { name: 'Сохранить' })).toBeDisabled();
    expect(screen.getByRole('alert')).toHaveTextContent('Имя — не короче 2 символов');
  });
});

describe('settings: notifications', () => {
  const base: SettingsPageViewProps = { me, loaded: true, busy: false, saved: false, error: null, onSave: vi.fn() };
  const switches = (over: Partial<SettingsPageViewProps> = {}): SettingsPageViewProps => ({
    ...base,
    notificationsOn: false,
    notificationsBusy: false,
    notificationsAvailable: true,
    showText: true,
    notificationsNote: null,
    onNotifications: vi.fn(),
    onShowText: vi.fn(),
    ...over,
  });

  it('«Уведомления» and «Показывать текст сообщений» are switches; the text one waits for the first', async () => {
    const p = switches();
    const view = render(<SettingsPageView {...p} />);
    const on = screen.getByRole('switch', { name: 'Уведомления' });
    const text = screen.getByRole('switch', { name: 'Показывать текст сообщений' });
    expect(on).not.toBeChecked();
    expect(text).toBeDisabled();
    await userEvent.click(on);
    expect(p.onNotifications).toHaveBeenCalledWith(true);

    const q = switches({ notificationsOn: true });
    view.rerender(<SettingsPageView {...q} />);
    expect(screen.getByRole('switch', { name: 'Уведомления' })).toBeChecked();
    await userEvent.click(screen.getByRole('switch', { name: 'Показывать текст сообщений' }));
    expect(q.onShowText).toHaveBeenCalledWith(false);
    await userEvent.click(screen.getByRole('switch', { name: 'Уведомления' }));
    expect(q.onNotifications).toHaveBeenCalledWith(false);
  });

  it('a blocked permission is explained next to the switch; an unsupported browser cannot switch it on', () => {
    const view = render(
      <SettingsPageView {...switches({ notificationsNote: 'Уведомления запрещены в настройках браузера' })} />,
    );
    expect(screen.getByRole('switch', { name: 'Уведомления' })).toHaveAccessibleDescription(
      'Уведомления запрещены в настройках браузера',
    );
    view.rerender(<SettingsPageView {...switches({ notificationsAvailable: false })} />);
    expect(screen.getByRole('switch', { name: 'Уведомления' })).toBeDisabled();
  });

  it('without the notifications actor (no hook props) the card is not drawn', () => {
    render(<SettingsPageView {...base} />);
    expect(screen.queryByRole('switch')).toBeNull();
  });
});
