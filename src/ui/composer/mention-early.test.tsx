// «@Бо» typed before the group's members have loaded (a chat opened a moment ago) opens the list once they come,
// without another keystroke; text that changed meanwhile is not offered again.
import { act, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { never, quietSocket, storedSession } from '../../../tests/fixtures/session';
import { appEffects } from '../../services/app/app-effects';
import { createRuntime } from '../../machines/app/runtime';
import type { ApiClient } from '../../services/app/api';
import { RuntimeProvider } from '../app/RuntimeContext';
import { useMentionPicker } from './useMentionPicker';

const api: ApiClient = { call: (async () => never()) as ApiClient['call'] };
const BORIS = { id: 'u-b', name: 'Борис', username: 'boris' };

interface Controls {
  type(text: string): void;
  setText(text: string): void;
  load(): void;
}

function Probe({ controls }: { controls: (c: Controls) => void }) {
  const [text, setText] = useState('');
  const [members, setMembers] = useState<(typeof BORIS)[]>([]);
  const picker = useMentionPicker({ members, text, onText: setText });
  controls({
    type: (t) => {
      setText(t);
      picker.input(t, t.length);
    },
    setText,
    load: () => setMembers([BORIS]),
  });
  return <p data-testid="list">{picker.open ? picker.candidates.map((c) => c.name).join(',') : 'closed'}</p>;
}

function mount() {
  const runtime = createRuntime({
    effects: appEffects,
    stored: storedSession,
    services: { api, connectSocket: () => quietSocket(), ping: () => never() },
  });
  let c: Controls | null = null;
  render(
    <RuntimeProvider app={runtime.app}>
      <Probe controls={(v) => (c = v)} />
    </RuntimeProvider>,
  );
  return () => c as unknown as Controls;
}

describe('the «@» list before the members are here', () => {
  it('opens for what was typed once the members come', async () => {
    const c = mount();
    act(() => c().type('Кто идёт? @Бо'));
    expect(screen.getByTestId('list')).toHaveTextContent('closed');
    act(() => c().load());
    expect(await screen.findByText('Борис')).toBeInTheDocument();
  });

  it('stays closed when the text changed before they came', () => {
    const c = mount();
    act(() => c().type('Кто идёт? @Бо'));
    act(() => c().setText(''));
    act(() => c().load());
    expect(screen.getByTestId('list')).toHaveTextContent('closed');
  });
});
