import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { EVERYONE_CANDIDATE } from '../../machines/composer/mentionPicker/mentionPicker.protocol';
import { Composer, type ComposerProps } from './Composer';
import type { MentionPickerView } from './useMentionPicker';

const mentions = (over: Partial<MentionPickerView> = {}): MentionPickerView => ({
  open: true,
  candidates: [EVERYONE_CANDIDATE, { id: 'u3', name: 'Вера', username: 'vera' }],
  index: 0,
  takeCaret: () => null,
  input: vi.fn(),
  next: vi.fn(),
  prev: vi.fn(),
  choose: vi.fn(),
  dismiss: vi.fn(),
  ...over,
});

const composer = (over: Partial<ComposerProps> = {}): ComposerProps => ({
  text: '@в',
  reply: null,
  uploadProgress: null,
  onText: vi.fn(),
  onSubmit: vi.fn(),
  onClearReply: vi.fn(),
  onAttach: vi.fn(),
  ...over,
});

describe('the «@» list', () => {
  it('shows «все» («Упомянуть всех») first, above the members, and a click chooses it', () => {
    const m = mentions();
    render(<Composer {...composer({ mentions: m })} />);
    const list = screen.getByRole('listbox', { name: 'Упомянуть участника' });
    const options = within(list).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['все Упомянуть всех', 'Вера @vera']);
    expect(options[0]).toHaveAttribute('aria-selected', 'true');
    fireEvent.mouseDown(options[0]);
    expect(m.choose).toHaveBeenCalledWith(0);
  });
});
