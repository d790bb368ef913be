// Ticking a checkbox or picking a radio whose state an actor holds (a dialog's friends, a group's settings, a form
// kept in its machine): it shows checked once the actor has taken the click — which waits for the actor's code when
// the view opened before it loaded — so click and wait for it. Playwright's check() looks right after its click and
// throws «Clicking the checkbox did not change its state» when the actor is a moment later.
import type { Locator } from '@playwright/test';
import { expect } from '@playwright/test';

export async function tick(control: Locator): Promise<void> {
  if (await control.isChecked()) return;
  await control.click();
  await expect(control).toBeChecked({ timeout: 15_000 });
}
