import { describe, expect, it } from 'vitest';
import { guestIdentity, leadsRekey } from './guest-rules';

describe('leadsRekey', () => {
  it('picks the one member with the lowest identity still in the call, guests aside', () => {
    const present = ['u-anna', 'u-boris', 'u-vera'];
    const leads = present.filter((own) =>
      leadsRekey(own, [...present.filter((id) => id !== own), guestIdentity('k2')]),
    );
    expect(leads).toEqual(['u-anna']);
    // Анна (who let the guest in) has left: Борис re-keys.
    expect(leadsRekey('u-boris', ['u-vera'])).toBe(true);
    expect(leadsRekey('u-vera', ['u-boris'])).toBe(false);
    // A guest's identity sorts before the members' ('guest:' < 'u-'), yet never leads.
    expect(leadsRekey('u-vera', [guestIdentity('k3')])).toBe(true);
  });
});
