import { describe, expect, it } from 'vitest';
import type { SystemInfo } from '../../contract/entities';
import { systemText } from './system-text';

const anna = { id: 'a', name: 'Анна' };
const boris = { id: 'b', name: 'Борис' };
const info = (over: Partial<SystemInfo>): SystemInfo => ({
  kind: 'left',
  actor: anna,
  targets: [],
  title: null,
  ...over,
});

describe('systemText', () => {
  it('says every change in the gender-neutral forms, names undeclined', () => {
    expect(systemText(info({ kind: 'created' }))).toBe('Анна создал(а) группу');
    expect(systemText(info({ kind: 'added', targets: [boris] }))).toBe('Анна добавил(а) участника: Борис');
    expect(systemText(info({ kind: 'added', targets: [boris, { id: 'v', name: 'Вера' }] }))).toBe(
      'Анна добавил(а) участников: Борис, Вера',
    );
    expect(systemText(info({ kind: 'removed', targets: [boris] }))).toBe('Анна удалил(а) участника: Борис');
    expect(systemText(info({ kind: 'left', actor: boris }))).toBe('Борис покинул(а) группу');
    expect(systemText(info({ kind: 'joined', actor: boris }))).toBe('Борис вступил(а) по ссылке');
    expect(systemText(info({ kind: 'renamed', title: 'Дача' }))).toBe('Анна изменил(а) название: «Дача»');
    expect(systemText(info({ kind: 'photo' }))).toBe('Анна изменил(а) фото группы');
    expect(systemText(info({ kind: 'historyShown' }))).toBe('Анна открыл(а) историю для новых участников');
    expect(systemText(info({ kind: 'historyHidden' }))).toBe('Анна скрыл(а) историю для новых участников');
  });
});
