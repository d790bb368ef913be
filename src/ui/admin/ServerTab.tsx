// «Сервер» (docs/behaviour.md §10.20): the figures of GET /api/admin/stats, the server's own backups and «Обновить».
import type { BackupStatus } from '../../contract/administration';
import { bytesText, when } from './texts';
import { type AdminStatsView, useAdminStats } from './useAdminStats';

export function ServerTab() {
  return <ServerView {...useAdminStats()} />;
}

export function ServerView(props: AdminStatsView) {
  const s = props.stats;
  const rows: [string, string][] = s
    ? [
        ['Пользователи', String(s.users.total)],
        ['Активные', String(s.users.active)],
        ['Отключённые', String(s.users.deactivated)],
        ['Администраторы', String(s.users.admins)],
        ['Сообщения', String(s.messages)],
        ['Файлы', String(s.uploads)],
        ['Занято места', bytesText(s.storageBytes)],
        ['Подключения', String(s.sockets)],
        ['Звонки сейчас', String(s.calls)],
        ['Гости в звонках', String(s.guests)],
        ['Версия', `${s.version} · схема ${s.schema}`],
        ['Запущен', when(s.startedAt)],
        ['База данных', s.database === 'postgres' ? 'PostgreSQL' : 'SQLite'],
        ['Хранилище файлов', s.storage === 's3' ? 'S3' : 'Диск'],
      ]
    : [];
  return (
    <section className="card admin-section" aria-labelledby="admin-server-title" aria-busy={props.busy}>
      <h2 className="form-title" id="admin-server-title">
        Сервер
      </h2>
      {props.error && (
        <p className="inline-error" role="alert">
          {props.error}
        </p>
      )}
      {s && (
        <dl className="admin-stats" data-testid="admin-stats">
          {rows.map(([k, v]) => (
            <div key={k} className="admin-stat">
              <dt>{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
        </dl>
      )}
      {s && <BackupView backup={s.backup} />}
      <div className="form-actions">
        <button type="button" className="button" disabled={props.busy} onClick={props.onReload}>
          Обновить
        </button>
      </div>
    </section>
  );
}

const RESULT_TEXT: Record<NonNullable<BackupStatus['last']>['status'], string> = {
  ok: 'Успешно',
  failed: 'Не удалась',
  running: 'Идёт',
};

/** «Резервные копии» (docs/administration.md): the schedule, where they go, the last one and the warning. */
export function BackupView({ backup }: { backup: BackupStatus }) {
  const last = backup.last;
  const rows: [string, string][] = [
    ['Расписание', backup.schedule ?? 'Выключено (BACKUP_SCHEDULE=off)'],
    ['Куда', backup.location === 's3' ? `Бакет S3: ${backup.place}` : `Диск: ${backup.place}`],
    ['Последняя копия', last ? when(last.startedAt) : 'Ещё не было'],
  ];
  if (last) {
    rows.push(['Результат', RESULT_TEXT[last.status]]);
    if (last.bytes !== null) rows.push(['Размер', bytesText(last.bytes)]);
    rows.push(['Файл', last.target]);
    if (last.failure) rows.push(['Причина', last.failure]);
  }
  if (backup.lastOkAt && last?.status !== 'ok') rows.push(['Последняя удачная', when(backup.lastOkAt)]);
  return (
    <section className="admin-backup" aria-labelledby="admin-backup-title" data-testid="admin-backup">
      <h3 className="admin-backup-title" id="admin-backup-title">
        Резервные копии
      </h3>
      {backup.warning && (
        <p className="admin-backup-warning" role="alert">
          {backup.warning}
        </p>
      )}
      <dl className="admin-backup-facts">
        {rows.map(([k, v]) => (
          <div key={k} className="admin-backup-fact">
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
