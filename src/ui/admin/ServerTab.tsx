// «Сервер» (docs/behaviour.md §10.20): the figures of GET /api/admin/stats and «Обновить».
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
      <div className="form-actions">
        <button type="button" className="button" disabled={props.busy} onClick={props.onReload}>
          Обновить
        </button>
      </div>
    </section>
  );
}
