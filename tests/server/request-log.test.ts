// Per-request logging: below debug only errors are written; at debug and trace Fastify's own lines stay.
import { LogController } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { ErrorsOnlyRequestLog, requestLogFor } from '../../server/http/request-log';

function fakeExchange() {
  const log = { info: vi.fn(), error: vi.fn(), warn: vi.fn() };
  const request = { log } as unknown as Parameters<LogController['incomingRequest']>[0];
  const reply = { log, elapsedTime: 1, statusCode: 200 } as unknown as Parameters<LogController['requestCompleted']>[2];
  return { log, request, reply };
}

describe('request log', () => {
  it('writes no line for an ordinary request', () => {
    const { log, request, reply } = fakeExchange();
    const c = new ErrorsOnlyRequestLog();
    c.incomingRequest(request, reply);
    c.requestCompleted(null as unknown as Error, request, reply);
    expect(log.info).not.toHaveBeenCalled();
    expect(log.error).not.toHaveBeenCalled();
  });

  it('still logs a request that errored', () => {
    const { log, request, reply } = fakeExchange();
    new ErrorsOnlyRequestLog().requestCompleted(new Error('boom'), request, reply);
    expect(log.error).toHaveBeenCalledTimes(1);
    expect(log.error.mock.calls[0]?.[1]).toBe('request errored');
  });

  it('keeps every request line at debug and trace only', () => {
    expect(requestLogFor('debug')).toBeUndefined();
    expect(requestLogFor('trace')).toBeUndefined();
    for (const level of ['info', 'warn', 'error', 'fatal'])
      expect(requestLogFor(level)).toBeInstanceOf(ErrorsOnlyRequestLog);
    // The default controller would log both lines.
    const { log, request, reply } = fakeExchange();
    const plain = new LogController();
    plain.incomingRequest(request, reply);
    plain.requestCompleted(null as unknown as Error, request, reply);
    expect(log.info).toHaveBeenCalledTimes(2);
  });
});
