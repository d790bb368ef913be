// Why the server did not start, in one Russian sentence with what to do, for the conditions an operator meets: a
// port in use, a wrong DATABASE_URL, a full disk, a data directory it may not write, and the refusals of the
// schema upgrade (server/db/upgrade.ts) and of TLS. Anything else stays an error with its stack trace: a bug.
import type { Config } from './config';
import { StartRefused } from './db/upgrade';
import { TlsStartError } from './tls/index';

interface SystemError {
  code?: string;
  errno?: number;
  syscall?: string;
  port?: number;
  address?: string;
  path?: string;
  message?: string;
  errors?: SystemError[];
}

/** The sentence for a known start-up failure, or null for one that is not (it is printed with its stack). */
export function startupProblem(err: unknown, config: Pick<Config, 'port' | 'dataDir' | 'databaseUrl'>): string | null {
  if (err instanceof StartRefused || err instanceof TlsStartError) return err.message;
  const e = (err ?? {}) as SystemError;
  const code = e.code ?? e.errors?.[0]?.code;
  const where = e.path ?? config.dataDir;
  switch (code) {
    case 'EADDRINUSE': {
      const port = e.port ?? config.port;
      return `Порт ${port} уже занят другой программой (или другой копией Беседы): остановите её или задайте другой порт (PORT=…).`;
    }
    case 'ECONNREFUSED':
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case '28P01': // wrong password
    case '3D000': // no such database
    case '28000': // no pg_hba.conf entry
      if (config.databaseUrl) {
        return `Не удалось подключиться к PostgreSQL по DATABASE_URL (${databaseAddress(config.databaseUrl)}): ${databaseReason(code)}. Проверьте, что PostgreSQL запущен, а адрес, имя базы и пароль в DATABASE_URL верны.`;
      }
      return null;
    case 'ERR_INVALID_URL':
      if (config.databaseUrl) {
        return 'DATABASE_URL не похож на адрес базы: нужен вид postgres://пользователь:пароль@сервер:5432/база.';
      }
      return null;
    case 'ENOSPC':
    case 'SQLITE_FULL':
      return `На диске не осталось места (${where}): освободите место или перенесите DATA_DIR на другой диск и запустите снова.`;
    case 'EACCES':
    case 'EPERM':
      if (e.syscall === 'listen' || e.syscall === 'bind') {
        return `Нет права открыть порт ${e.port ?? config.port}: порты ниже 1024 требуют прав администратора — задайте PORT=4000 или выше, или дайте Node право (setcap cap_net_bind_service).`;
      }
      return readOnly(where);
    case 'EROFS':
    case 'SQLITE_READONLY':
    case 'SQLITE_CANTOPEN':
      return readOnly(where);
    default:
      return null;
  }
}

function readOnly(where: string): string {
  return `Нет права записи в каталог данных (${where}): дайте пользователю, от имени которого запущена Беседа, право записи в DATA_DIR или укажите другой каталог (DATA_DIR=…).`;
}

/** Host and port of a database address, never its password. */
function databaseAddress(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return 'адрес не разобран';
  }
}

function databaseReason(code: string): string {
  switch (code) {
    case 'ECONNREFUSED':
      return 'соединение отвергнуто';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'такой сервер не найден';
    case '28P01':
      return 'неверный пароль';
    case '3D000':
      return 'такой базы нет';
    case '28000':
      return 'сервер не пускает этого пользователя';
    default:
      return 'сервер не отвечает';
  }
}
