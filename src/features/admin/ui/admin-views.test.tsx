import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { RegistrationView } from './RegistrationTab';

describe('«Регистрация» view', () => {
  it('renders the settings and codes', () => {
    render(
      <RegistrationView
        settings={{ registration: 'invites', membersCanInvite: false, retentionDays: null }}
        invites={[]}
        copiedCode={null}
        busy={false}
        saved={false}
        error={null}
        onSave={vi.fn()}
        onCreate={vi.fn()}
        onRevoke={vi.fn()}
        onCopy={vi.fn()}
        onReload={vi.fn()}
      />,
    );
    expect(screen.getByRole('radio', { name: /По приглашениям/ })).toBeChecked();
  });
});
