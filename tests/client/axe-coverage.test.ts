// @vitest-environment node
// Axe over every screen and dialog, in both themes (docs/accessibility.md): each route of the app and each view that
// shows a dialog (a <Modal>, or an element of role dialog or alertdialog) names the browser test that opens it and
// the label of the axe pass it runs there (e2e/a11y.ts checks the page in the theme it shows, then in the other).
// A new route or dialog without a pass fails here, so the sweep stays whole on purpose, not by chance.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');

/** Where each dialog is checked: its view's file → the spec and the axe pass's label. */
const DIALOGS: Record<string, [spec: string, label: string]> = {
  'src/ui/admin/ReportsTab.tsx': ['administration', 'admin reports: «Удалить сообщение у всех?»'],
  'src/ui/admin/UsersTab.tsx': ['administration', 'admin users: «Отключить аккаунт»'],
  'src/ui/app/AppLayout.tsx': ['everyday', '«Выйти из аккаунта?»'],
  'src/ui/calls/CallOverlay.tsx': ['calls', 'call overlay'],
  'src/ui/calls/IncomingCallDialog.tsx': ['calls', 'incoming-call dialog'],
  'src/ui/chats/ChatMenu.tsx': ['groups', 'chat menu'],
  'src/ui/chats/QuickSwitcher.tsx': ['keyboard-day', 'Перейти к чату'],
  'src/ui/chats/ShortcutsDialog.tsx': ['keyboard-day', 'Сочетания клавиш'],
  'src/ui/composer/SendPreviewDialog.tsx': ['message-actions', 'send preview'],
  'src/ui/contacts/ContactsDialog.tsx': ['contacts', 'contacts dialog with a found user'],
  'src/ui/contacts/GroupDialog.tsx': ['contacts', 'group dialog'],
  'src/ui/contacts/MemberCard.tsx': ['team-dm', 'member card'],
  'src/ui/conversation/Lightbox.tsx': ['chats-extras', 'lightbox open'],
  'src/ui/conversationInfo/ConversationInfo.tsx': ['groups', 'info panel'],
  'src/ui/folders/FoldersSection.tsx': ['folders', '«Новая папка»'],
  'src/ui/historyImport/HistoryImportDialog.tsx': ['history-import', 'import: choose a file'],
  'src/ui/messageActions/EditHistoryDialog.tsx': ['unread-edits', '«История изменений»'],
  'src/ui/messageActions/ForwardDialog.tsx': ['message-actions', 'forward dialog'],
  'src/ui/messageActions/MessageInfoDialog.tsx': ['message-actions', 'message info'],
  'src/ui/messageActions/RemovalPrompt.tsx': ['message-actions', 'delete dialog'],
  'src/ui/polls/PollComposerDialog.tsx': ['polls', 'the poll dialog'],
  'src/ui/profile/CustomStatusDialog.tsx': ['custom-status', '«Статус»'],
  'src/ui/profile/ProfileDialog.tsx': ['contacts', 'profile dialog'],
  'src/ui/reports/ReportDialog.tsx': ['administration', 'report dialog'],
  'src/ui/scheduled/ScheduledDialog.tsx': ['saved-scheduled', '«Отправить позже»'],
  'src/ui/secretChats/RecoveryDialog.tsx': ['secret-recovery', '«Ключ восстановления» with the phrase'],
  'src/ui/secretChats/SecretDialog.tsx': ['secret-chats', '«Новый секретный чат»'],
  'src/ui/secretChats/SecretVerifyDialog.tsx': ['secret-verify', '«Проверить шифрование»'],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the spec's label is a template, checked as written
  'src/ui/shared/EmojiPicker.tsx': ['first-steps', 'emoji picker (${size})'],
};

/** Where each screen is checked: its route (as the router's `path`) → the spec and the label. */
const ROUTES: Record<string, [spec: string, label: string]> = {
  '*': ['everyday', 'list with previews'],
  '/auth/*': ['auth', 'sign-in form'],
  register: ['auth', 'registration form'],
  oidc: ['oidc', 'sign-in with the provider'],
  '/reset/:token': ['administration', 'password reset'],
  '/g/:code': ['guest-links', 'guest page'],
  'c/:conversationId': ['chats', 'empty conversation'],
  contacts: ['contacts', 'contacts page (empty)'],
  calls: ['everyday', 'calls page with history'],
  'join/:code': ['groups', 'join page'],
  'admin/*': ['administration', 'admin users'],
  users: ['administration', 'admin users'],
  registration: ['administration', 'admin registration'],
  reports: ['administration', 'admin reports'],
  server: ['administration', 'admin server'],
  settings: ['contacts', 'settings page'],
};

function filesUnder(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) return filesUnder(rel);
    return /\.tsx$/.test(e.name) && !/\.test\.tsx$/.test(e.name) ? [rel] : [];
  });
}

/** The views that show a dialog, and the routes, read from the sources. */
function inventory(sources: Record<string, string>): { dialogs: string[]; routes: string[] } {
  const dialogs: string[] = [];
  const routes = new Set<string>();
  for (const [file, text] of Object.entries(sources)) {
    if (file === 'src/ui/shared/Modal.tsx') continue; // the frame every <Modal> is drawn in
    if (/<Modal\b|role="(alert)?dialog"/.test(text)) dialogs.push(file);
    for (const m of text.matchAll(/<Route\b[^>]*\bpath="([^"]+)"/g)) routes.add(m[1] as string);
  }
  return { dialogs: dialogs.sort(), routes: [...routes].sort() };
}

/** What is missing: views and routes without a pass, and passes whose spec does not run them. */
function gaps(
  sources: Record<string, string>,
  specText: (name: string) => string | null,
  dialogs = DIALOGS,
  routes = ROUTES,
): string[] {
  const found = inventory(sources);
  const out: string[] = [];
  for (const f of found.dialogs) if (!dialogs[f]) out.push(`dialog without an axe pass: ${f}`);
  for (const r of found.routes) if (!routes[r]) out.push(`route without an axe pass: ${r}`);
  for (const [what, [spec, label]] of [...Object.entries(dialogs), ...Object.entries(routes)]) {
    const text = specText(spec);
    const quoted = [`'${label}'`, `\`${label}\``].some((q) => text?.includes(q));
    if (!text || !quoted || !/(expectNoSeriousA11yViolations|axe)\(/.test(text))
      out.push(`${what}: e2e/${spec}.spec.ts has no axe pass «${label}»`);
  }
  return out;
}

const sources = Object.fromEntries(filesUnder('src/ui').map((f) => [f, fs.readFileSync(path.join(root, f), 'utf8')]));
const specText = (name: string) => {
  const file = path.join(root, 'e2e', `${name}.spec.ts`);
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
};

describe('axe over every screen and dialog', () => {
  it('finds the dialogs and routes it must cover', () => {
    const found = inventory(sources);
    expect(found.dialogs).toContain('src/ui/messageActions/EditHistoryDialog.tsx');
    expect(found.dialogs).toContain('src/ui/calls/IncomingCallDialog.tsx');
    expect(found.routes).toEqual(expect.arrayContaining(['c/:conversationId', 'settings', '/g/:code']));
    expect(found.dialogs.length).toBeGreaterThan(25);
  });

  it('every view that shows a dialog, and every route, has its axe pass in a browser test', () => {
    expect(gaps(sources, specText)).toEqual([]);
  });

  it('probes: a new dialog or route without a pass, and a pass its spec does not run, are caught', () => {
    const probe = { ...sources, 'src/ui/probe/NewDialog.tsx': '<Modal title="Новое окно" onClose={close}>' };
    expect(gaps(probe, specText)).toEqual(['dialog without an axe pass: src/ui/probe/NewDialog.tsx']);
    const route = { ...sources, 'src/ui/probe/Routes.tsx': '<Route path="probe" element={<Probe />} />' };
    expect(gaps(route, specText)).toEqual(['route without an axe pass: probe']);
    const wrong = {
      ...DIALOGS,
      'src/ui/polls/PollComposerDialog.tsx': ['polls', 'a label no spec has'] as [string, string],
    };
    expect(gaps(sources, specText, wrong)).toEqual([
      'src/ui/polls/PollComposerDialog.tsx: e2e/polls.spec.ts has no axe pass «a label no spec has»',
    ]);
  });
});
