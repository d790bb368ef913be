// Names are never declined (docs/behaviour.md, Conventions): a person's or a group's name is put into a sentence
// only where the nominative reads right — after a colon or a middle dot, in brackets, or as the subject
// («Удалить из группы: Николай Иванович?», «Переслано · Ольга Петрова»). A name right after a preposition or a verb
// that governs another case («У Иван Петров нет…», «Удалить участника Николай Иванович из группы?», «Переслано от
// Ольга Петрова») reads wrong; this scan of the sources keeps such sentences from coming back.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the examples are source lines, quoted as data.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');
const SCAN = ['src', 'server'];
const EXTENSIONS = new Set(['.ts', '.tsx']);

/** Words after which a name would have to be declined: prepositions, and verbs and nouns that govern its case. */
const GOVERNING = [
  'у',
  'от',
  'для',
  'с',
  'со',
  'к',
  'ко',
  'о',
  'об',
  'обо',
  'про',
  'без',
  'из',
  'в',
  'во',
  'на',
  'по',
  'при',
  'за',
  'над',
  'под',
  'перед',
  'между',
  'через',
  'участника',
  'участников',
  'пользователя',
  'аккаунт',
  'сообщение',
  'удалить',
  'отключить',
  'включить',
  'сделать',
  'заблокировать',
  'разблокировать',
  'пригласить',
  'добавить',
  'исключить',
  'позвонить',
  'написать',
].join('|');

/** An interpolation that holds a person's or a group's name (a display name, a title, a sender …). */
const NAME_VALUE = String.raw`(?:\$\{|\{)[^}]*(?:[Nn]ame|[Tt]itle|\bwho\b|[Ss]ender|forwardedFrom|[Cc]aller)[^}]*\}`;

/** The governing word right before a name, in a template string or in JSX text. */
const FORBIDDEN = new RegExp(String.raw`(?<![\p{L}\p{N}_-])(?:${GOVERNING})\s+${NAME_VALUE}`, 'iu');

function forbiddenNameSentences(source: string): string[] {
  return source
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line))
    .filter((line) => FORBIDDEN.test(line))
    .map((line) => line.trim());
}

function files(rel: string): string[] {
  const abs = path.join(root, rel);
  if (!fs.existsSync(abs)) return [];
  if (fs.statSync(abs).isFile()) return EXTENSIONS.has(path.extname(rel)) ? [rel] : [];
  return fs
    .readdirSync(abs)
    .filter((name) => name !== 'node_modules')
    .flatMap((name) => files(path.join(rel, name)));
}

describe('names in sentences', () => {
  it('are flagged right after a word that would decline them, and left alone where the nominative reads right', () => {
    const flagged = [
      'noDevice: `У ${names.join(", ")} нет устройства для секретных чатов`,',
      'question: `Удалить участника ${nameOf(pending.userId)} из группы?`,',
      '<span className="msg-forwarded">Переслано от {row.forwardedFrom}</span>',
      'Новый пароль для {a.displayName} (@{a.username})',
      'title: (n) => `Снять права администратора с ${props.name}?`,',
      'const about = `на пользователя ${n.targetName}`;',
      'aria-label={`Выбрать сообщение ${row.senderName}: ${row.text}`}',
    ];
    for (const line of flagged) expect(forbiddenNameSentences(line), line).toEqual([line.trim()]);
    const fine = [
      'question: `Удалить из группы: ${nameOf(pending.userId)}?`,',
      '<span className="msg-forwarded">Переслано · {row.forwardedFrom}</span>',
      'return `${who} добавил(а) участника: ${names(info)}`;',
      'const about = `на пользователя (${n.targetName})`;',
      'return `${names[0]} и ${names[1]} печатают`;',
      'aria-label={`Открыть изображение ${props.a.name}`}',
      'return `вступили ${l.uses} из ${l.maxUses}`;',
      'return `был(а) онлайн ${formatDate(seen)} в ${formatTime(seen)}`;',
      '// Переслано от {name}: an old text, quoted in a comment',
    ];
    for (const line of fine) expect(forbiddenNameSentences(line), line).toEqual([]);
  });

  it('never come right after a preposition or a governing word anywhere in src/ and server/', () => {
    const found = SCAN.flatMap(files)
      .filter((rel) => !/\.(test|spec)\.tsx?$/.test(rel))
      .flatMap((rel) =>
        forbiddenNameSentences(fs.readFileSync(path.join(root, rel), 'utf8')).map((l) => `${rel}: ${l}`),
      );
    expect(found).toEqual([]);
  });
});
