// What the secret-chat specs share: another sign-in of the same person (another device), a signed-in page in a
// context of its own, becoming a device, and the files a server wrote (to scan them for plaintext).
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from '@playwright/test';
import type { TestServer } from '../tests/server/harness';
import { tick } from './controls';
import { expect } from './fixtures';
import { apiCall, type E2EUser, PASSWORD, signInContext } from './users';

/** Another sign-in of the same person: another device. */
export async function signInAgain(base: string, u: E2EUser): Promise<E2EUser> {
  const login = await apiCall<Omit<E2EUser, 'username' | 'password' | 'displayName'>>(base, 'POST', '/api/auth/login', {
    username: u.username,
    password: PASSWORD,
  });
  return { ...u, ...login };
}

export async function open(browser: Browser, srv: TestServer, u: E2EUser): Promise<Page> {
  const context = await browser.newContext({ baseURL: srv.url });
  await signInContext(context, u);
  const page = await context.newPage();
  await page.goto(srv.url);
  return page;
}

/**
 * Opening «Новый секретный чат» once makes this browser a device (others can then add it). A person's later browser
 * asks for approval only then (while they have no secret chat): `approver`, another of their browsers, confirms.
 */
export async function becomeDevice(page: Page, approver?: Page): Promise<void> {
  await page.getByRole('button', { name: 'Новый секретный чат' }).click();
  const dialog = page.getByRole('dialog', { name: 'Новый секретный чат' });
  if (approver) await approveDevice([approver, page]);
  // «Создать» waits for this browser's registration: started at an idle moment up to 2 s after the list painted,
  // then keys made in the crypto worker and two requests. With two browsers per core that passed 5 s (a README run
  // failed here at 5 s, the button still disabled), so the wait is the registration's, not the default.
  await expect(dialog.getByRole('button', { name: 'Создать' })).toBeEnabled({ timeout: 20_000 });
  await dialog.getByRole('button', { name: 'Отмена' }).click();
}

/** «Новый секретный чат» with one friend: the chat opens; its id. */
export async function startSecretChat(page: Page, friend: RegExp): Promise<string> {
  await page.getByRole('button', { name: 'Новый секретный чат' }).click();
  const dialog = page.getByRole('dialog', { name: 'Новый секретный чат' });
  await tick(dialog.getByRole('checkbox', { name: friend }));
  await dialog.getByRole('button', { name: 'Создать' }).click();
  await expect(page).toHaveURL(/\/c\/[A-Za-z0-9_-]+$/);
  return new URL(page.url()).pathname.split('/').pop() as string;
}

/** Every file under a directory, recursively. */
export function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : [p];
  });
}

/**
 * A person's new device waits until one of their devices approves it (docs/secret-chats.md "Identity keys"): among
 * `pages`, the one that asks «Новое устройство входит в секретные чаты: подтвердить?» confirms, once another of them
 * shows the same code.
 */
export async function approveDevice(pages: Page[]): Promise<{ approver: Page; code: string }> {
  // A notice that leaves the page usable, not a modal.
  const dialogs = pages.map((p) => p.getByRole('region', { name: 'Новое устройство' }));
  let at = -1;
  await expect
    .poll(
      async () => {
        at = (await Promise.all(dialogs.map((d) => d.isVisible()))).indexOf(true);
        return at;
      },
      { timeout: 30_000 },
    )
    .toBeGreaterThanOrEqual(0);
  const approver = pages[at] as Page;
  const dialog = dialogs[at] as ReturnType<Page['getByRole']>;
  await expect(dialog).toContainText('Новое устройство входит в секретные чаты: подтвердить?');
  const code = ((await dialog.getByTestId('secret-approval-code').textContent()) ?? '').trim();
  expect(code).toMatch(/^\d{3} \d{3}$/);
  const waiting = pages.filter((_, i) => i !== at).map((p) => p.getByTestId('secret-approval-waiting'));
  await expect
    .poll(async () =>
      (await Promise.all(waiting.map((w) => w.textContent().catch(() => null)))).some((t) => t?.includes(code)),
    )
    .toBe(true);
  await dialog.getByRole('button', { name: 'Подтвердить' }).click();
  await expect(dialog).toBeHidden({ timeout: 20_000 });
  for (const w of waiting) await expect(w).toHaveCount(0, { timeout: 20_000 });
  return { approver, code };
}
