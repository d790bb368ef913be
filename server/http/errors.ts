// Client mistakes become 4xx JSON { message } in Russian; a database that is down or full is a 503 or 507 the
// client may retry; only real faults are 500.
import type { FastifyError, FastifyInstance } from 'fastify';
import { ZodError } from 'zod';
import { unknownAddress } from '../../src/contract/directory';
import { databaseFailure } from '../db/unavailable';
import { HttpError } from './http-error';

export { HttpError };

export const badRequest = (m: string) => new HttpError(400, m);
export const unauthorized = (m = 'Требуется вход') => new HttpError(401, m);
export const forbidden = (m = 'Недостаточно прав') => new HttpError(403, m);
export const notFound = (m = 'Не найдено') => new HttpError(404, m);
export const conflict = (m: string) => new HttpError(409, m);

const fastifyCodes: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'Некорректный JSON'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'Пустое тело запроса'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'Неподдерживаемый тип содержимого'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'Некорректная длина тела запроса'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'Слишком большой запрос'],
  FST_REQ_FILE_TOO_LARGE: [413, 'Файл слишком большой'],
  FST_INVALID_MULTIPART_CONTENT_TYPE: [400, 'Ожидается multipart/form-data'],
  FST_FILES_LIMIT: [400, 'Можно загрузить только один файл'],
  FST_PARTS_LIMIT: [400, 'Слишком много частей в запросе'],
  FST_ERR_BAD_URL: [400, 'Некорректный адрес'],
};

export function zodMessage(err: ZodError): string {
  const issue = err.issues[0];
  if (!issue) return 'Некорректный запрос';
  const where = issue.path.length ? `${issue.path.join('.')}: ` : '';
  if (issue.code === 'unrecognized_keys') {
    // A body may carry thousands of keys: name a few, not all of them.
    const shown = issue.keys.slice(0, 5).map((k) => k.slice(0, 64));
    const more = issue.keys.length - shown.length;
    return `Неизвестные поля: ${shown.join(', ')}${more > 0 ? ` и ещё ${more}` : ''}`;
  }
  if (issue.code === 'invalid_type') return `${where}неверный тип или значение отсутствует`;
  return `${where}${issue.message}`;
}

/** Seconds a client is asked to wait before retrying a request the database could not serve. */
const RETRY_AFTER_SEC = '5';

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | HttpError | ZodError, req, reply) => {
    const outage = databaseFailure(err);
    if (outage) {
      // Expected while the database is away: a warning, not a fault of this request.
      req.log.warn({ err }, outage.message);
      // An upload refused midway (a full disk) has the rest of its body unread: closing the connection, as for 413,
      // ends it, where the client would otherwise keep sending into a connection nobody reads.
      if (!req.raw.complete) reply.header('connection', 'close');
      return reply.status(outage.statusCode).header('retry-after', RETRY_AFTER_SEC).send({ message: outage.message });
    }
    if (err instanceof HttpError) return reply.status(err.statusCode).send({ message: err.message });
    if (err instanceof ZodError) return reply.status(400).send({ message: zodMessage(err) });
    const fe = err as FastifyError;
    const known = fe.code ? fastifyCodes[fe.code] : undefined;
    // Closing the connection stops the rest of an oversized body from being read (Node would drain it).
    if (known?.[0] === 413) reply.header('connection', 'close');
    if (known) return reply.status(known[0]).send({ message: known[1] });
    if (fe.statusCode === 429) return reply.status(429).send({ message: 'Слишком много запросов. Попробуйте позже.' });
    if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
      return reply.status(fe.statusCode).send({ message: 'Некорректный запрос' });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ message: 'Внутренняя ошибка сервера' });
  });
  app.setNotFoundHandler((req, reply) =>
    reply.status(404).send({ message: unknownAddress(req.method, req.url.split('?')[0]) }),
  );
}
