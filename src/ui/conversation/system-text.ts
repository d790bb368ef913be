// The words of a group's SYSTEM entries, in the gender-neutral forms of the product («был(а) онлайн») and with
// names as they were then, never declined: «Анна добавил(а) участника: Борис».
import type { SystemInfo } from '../../contract/entities';
import { importDividerText } from '../../contract/history-import/texts';

const names = (info: SystemInfo) => info.targets.map((t) => t.name).join(', ');

export function systemText(info: SystemInfo): string {
  const who = info.actor.name;
  const many = info.targets.length > 1;
  switch (info.kind) {
    case 'created':
      return `${who} создал(а) группу`;
    case 'added':
      return `${who} добавил(а) ${many ? 'участников' : 'участника'}: ${names(info)}`;
    case 'removed':
      return `${who} удалил(а) ${many ? 'участников' : 'участника'}: ${names(info)}`;
    case 'left':
      return `${who} покинул(а) группу`;
    case 'joined':
      return `${who} вступил(а) по ссылке`;
    case 'joinedOpen':
      return `${who} вступил(а) в группу`;
    case 'renamed':
      return `${who} изменил(а) название: «${info.title ?? ''}»`;
    case 'photo':
      return `${who} изменил(а) фото группы`;
    case 'pinned':
      return info.excerpt ? `${who} закрепил(а) сообщение «${info.excerpt}»` : `${who} закрепил(а) сообщение`;
    case 'historyShown':
      return `${who} открыл(а) историю для новых участников`;
    case 'historyHidden':
      return `${who} скрыл(а) историю для новых участников`;
    case 'imported':
      return info.imported ? importDividerText(info.imported.source, info.imported.count) : 'Импортированная история';
    // A service line of the export keeps its own words (in `title`).
    case 'importedService':
      return info.title ?? '';
  }
}
