// The Russian words of «Администрирование» (docs/behaviour.md §10.20), shared by its tabs.
import type { AccountState, ReportReason } from '../../contract/administration';
import type { ServerRole } from '../../contract/entities';
import type { AdminReport } from '../../machines/admin/adminReports/adminReports.protocol';

export const STATE_TEXT: Record<AccountState, string> = {
  active: 'Активен',
  deactivated: 'Отключён',
  deleted: 'Удалён',
};
export const ROLE_TEXT: Record<ServerRole, string> = { admin: 'Администратор', member: 'Участник' };
export const REASON_TEXT: Record<ReportReason, string> = {
  spam: 'Спам',
  abuse: 'Оскорбления',
  violence: 'Насилие',
  illegal: 'Незаконный контент',
  other: 'Другое',
};
export const REPORT_STATUS_TEXT: Record<AdminReport['status'], string> = {
  open: 'Открыта',
  deleted: 'Сообщение удалено',
  deactivated: 'Пользователь отключён',
  dismissed: 'Отклонена',
};

/** «24.11.2026, 10:00», or «—». */
export const when = (iso: string | null) =>
  iso
    ? new Date(iso).toLocaleString('ru-RU', {
        day: '2-digit',
        month: '2-digit',
        year: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
      })
    : '—';

/** «850 КБ», «1,2 МБ», «3,4 ГБ». */
export function bytesText(bytes: number): string {
  const units = ['Б', 'КБ', 'МБ', 'ГБ', 'ТБ'];
  let n = bytes;
  let i = 0;
  while (n >= 1024 && i < units.length - 1) {
    n /= 1024;
    i++;
  }
  return `${n.toLocaleString('ru-RU', { maximumFractionDigits: i === 0 ? 0 : 1 })} ${units[i]}`;
}
