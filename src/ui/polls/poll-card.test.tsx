// The poll card from props: options as buttons until one votes, then shares, counts and the own choice; a quiz's
// answer and explanation after answering; «Кто голосовал» names voters; «Завершить опрос» only for who may.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { PollInfo } from '../../contract/entities';
import { PollCard, type PollCardProps } from './PollCard';
import { pollCardView, votesText } from './poll-card-view';

const info = (over: Partial<PollInfo> = {}): PollInfo => ({
  question: 'Куда идём?',
  options: [
    { id: '0', text: 'Кино', votes: 2, voters: ['u1', 'u2'] },
    { id: '1', text: 'Театр', votes: 1, voters: ['u3'] },
  ],
  multiple: false,
  anonymous: false,
  quiz: false,
  closed: false,
  voterCount: 3,
  version: 3,
  mine: [],
  ...over,
});
const names = { u1: 'Анна', u2: 'Вы', u3: 'Вера' };

function card(p: PollInfo, over: Partial<PollCardProps> = {}) {
  const props: PollCardProps = {
    view: pollCardView(p, names),
    question: p.question,
    multiple: p.multiple,
    anonymous: p.anonymous,
    closed: p.closed,
    explanation: p.explanation ?? null,
    canClose: false,
    busy: false,
    error: null,
    onVote: vi.fn(),
    onRetract: vi.fn(),
    onClose: vi.fn(),
    ...over,
  };
  render(<PollCard {...props} />);
  return props;
}

describe('poll card', () => {
  it('counts votes in Russian', () => {
    expect([0, 1, 2, 5, 11, 21, 22].map(votesText)).toEqual([
      '0 голосов',
      '1 голос',
      '2 голоса',
      '5 голосов',
      '11 голосов',
      '21 голос',
      '22 голоса',
    ]);
  });

  it('votes with a click while open and not voted; shows shares and counts to everyone', async () => {
    const props = card(info());
    expect(screen.getByRole('meter', { name: 'Кино: 67%' })).toBeInTheDocument();
    expect(screen.getByText('3 голоса')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Завершить опрос' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Театр' }));
    expect(props.onVote).toHaveBeenCalledWith(['1']);
  });

  it('after voting marks the choice and offers «Отменить голос»; «Кто голосовал» lists names', async () => {
    const props = card(info({ mine: ['0'] }), { canClose: true });
    expect(screen.queryByRole('button', { name: 'Кино' })).toBeNull();
    expect(screen.getByText(/ваш выбор/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Отменить голос' }));
    expect(props.onRetract).toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Кто голосовал' }));
    expect(screen.getByText('Анна, Вы')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Завершить опрос' }));
    expect(props.onClose).toHaveBeenCalled();
  });

  it('multiple choice votes the ticked set; an anonymous poll has no «Кто голосовал»', async () => {
    const props = card(
      info({ multiple: true, anonymous: true, options: info().options.map(({ voters: _, ...o }) => o) }),
    );
    expect(screen.queryByRole('button', { name: 'Кто голосовал' })).toBeNull();
    const vote = screen.getByRole('button', { name: 'Голосовать' });
    expect(vote).toBeDisabled();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Кино' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Театр' }));
    await userEvent.click(vote);
    expect(props.onVote).toHaveBeenCalledWith(['0', '1']);
  });

  it("a quiz answered shows the right option and the explanation, and can't be taken back", () => {
    card(info({ quiz: true, mine: ['0'], correctOptionId: '1', explanation: 'Театр начинается с вешалки' }));
    expect(screen.getByText(/правильный ответ/)).toBeInTheDocument();
    expect(screen.getByText('Театр начинается с вешалки')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Отменить голос' })).toBeNull();
  });

  it('a closed poll takes no votes; an error is said', () => {
    card(info({ closed: true }), { error: 'Опрос завершён, голосовать уже нельзя' });
    expect(screen.queryByRole('button', { name: 'Кино' })).toBeNull();
    expect(screen.getByText(/завершён$/)).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Опрос завершён, голосовать уже нельзя');
  });
});
