import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { conversation, entry, person } from '../../../tests/client/chat-fixtures';
import { ConversationInfo, type ConversationInfoViewProps } from './ConversationInfo';
import { infoView } from './info-view';

const me = person('me', 'Я');
const anna = person('u2', 'Анна');
const g = conversation('g1', [me, anna], { title: 'Дача', isGroup: true });
g.participants[0].role = 'OWNER';

const props = (over: Partial<ConversationInfoViewProps> = {}): ConversationInfoViewProps => ({
  view: infoView(entry(g), 'me', Date.now()),
  people: new Map([[anna.id, anna]]),
  chat: null,
  media: null,
  history: null,
  historyImport: null,
  secretGroup: false,
  invites: null,
  callLinks: null,
  picture: null,
  block: null,
  report: null,
  verify: null,
  adding: true,
  renaming: false,
  confirm: null,
  busy: false,
  error: null,
  addable: [{ id: 'u3', name: 'Борис', ticked: false }],
  selected: [],
  addExclude: new Set(['me', 'u2', 'u3']),
  title: '',
  onClose: vi.fn(),
  onAction: vi.fn(),
  onAddOpen: vi.fn(),
  onToggle: vi.fn(),
  onAddConfirm: vi.fn(),
  onRenameOpen: vi.fn(),
  onTitle: vi.fn(),
  onRenameConfirm: vi.fn(),
  onLeave: vi.fn(),
  threadsOn: null,
  onThreads: vi.fn(),
  onOpen: vi.fn(),
  onConfirm: vi.fn(),
  onCancel: vi.fn(),
  ...over,
});

// A stand-in for «Люди» (src/ui/directory/DirectoryPicker.tsx, tested beside it): the slot is the view's only link.
const people = (
  <fieldset>
    <legend>Люди</legend>
    <label>
      <input type="checkbox" defaultChecked /> Глеб
    </label>
  </fieldset>
);

describe('«Добавить участников» in «Информация»', () => {
  it('lists friends to tick, and «Люди» from the directory under them when given', () => {
    const p = props({ addPeople: people });
    render(<ConversationInfo {...p} />);
    const add = screen.getByRole('group', { name: 'Добавить участников' });
    fireEvent.click(within(add).getByRole('checkbox', { name: /Борис/ }));
    expect(p.onToggle).toHaveBeenCalledWith('u3');
    expect(within(add).getByRole('group', { name: 'Люди' })).toBeInTheDocument();
    // Nothing ticked yet: nothing to add.
    expect(within(add).getByRole('button', { name: 'Добавить' })).toBeDisabled();
  });

  it('adds someone ticked from «Люди» though no friend is ticked', () => {
    const p = props({ addPeople: people, selected: ['u9'] });
    render(<ConversationInfo {...p} />);
    const add = screen.getByRole('group', { name: 'Добавить участников' });
    fireEvent.click(within(add).getByRole('button', { name: 'Добавить' }));
    expect(p.onAddConfirm).toHaveBeenCalled();
  });

  it('shows no «Люди» while the directory is off (no slot)', () => {
    render(<ConversationInfo {...props({ addable: [] })} />);
    const add = screen.getByRole('group', { name: 'Добавить участников' });
    expect(within(add).queryByRole('group', { name: 'Люди' })).toBeNull();
    expect(within(add).getByText('Все ваши друзья уже в группе')).toBeVisible();
  });
});
