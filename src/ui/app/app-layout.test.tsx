import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderApp, storedSession } from '../../../tests/client/render-app';

afterEach(() => localStorage.clear());

describe('shared layout', () => {
  it("shows the server's reason when it closes this tab's connection for good", async () => {
    const { runtime } = renderApp('/settings', { stored: storedSession });
    expect(screen.queryByRole('alert')).toBeNull();
    const realtime = runtime.app.system.get('realtime');
    act(() => {
      realtime.send({ type: 'socket.connected' });
      realtime.send({
        type: 'server.event',
        name: 'session:closed',
        payload: { reason: 'tooManyConnections', message: 'Слишком много открытых вкладок' },
      });
    });
    expect(await screen.findByText('Слишком много открытых вкладок')).toHaveAttribute('role', 'alert');
  });
});
