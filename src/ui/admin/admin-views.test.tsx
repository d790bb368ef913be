import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { RegistrationView } from './RegistrationTab';

describe('«Регистрация» view', () => {
  it('renders the settings', () => {
    render(
      <RegistrationView
        settings={{ registration: 'invites', membersCanInvite: false, retentionDays: null }}
        busy={false}
        saved={false}
        error={null}
        onSave={vi.fn()}
        onReload={vi.fn()}
      />,
    );
    expect(screen.getByRole('radio', { name: /По приглашениям/ })).toBeChecked();
  });
});
