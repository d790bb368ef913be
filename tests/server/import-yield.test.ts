// The history import's gate (server/imports/yield-to-requests.ts) on a real HTTP server: it lets the import go on
// only while no request is being answered, and never waits longer than its limit for one that stays open.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { requestGate } from '../../server/imports/yield-to-requests';
import { manualClock } from './manual-clock';

const servers: http.Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** A server whose answers wait until the test releases them. */
async function holdingServer() {
  const held: http.ServerResponse[] = [];
  const arrived: (() => void)[] = [];
  const server = http.createServer((_req, res) => {
    held.push(res);
    for (const a of arrived.splice(0)) a();
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    server,
    /** Sends a request and resolves once the server holds it. */
    async open(): Promise<{ answer: Promise<Response> }> {
      const here = new Promise<void>((r) => arrived.push(r));
      const answer = fetch(url);
      await here;
      return { answer };
    },
    release() {
      held.shift()?.end('ok');
    },
  };
}

const settled = async (p: Promise<unknown>) => {
  let done = false;
  void p.then(() => {
    done = true;
  });
  // Several turns of the event loop: anything already able to resolve has.
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  return done;
};

describe('the import gives way to requests', () => {
  it('goes on at once when no request is open, waits while one is, and goes on when it is answered', async () => {
    const s = await holdingServer();
    const clock = manualClock();
    const gate = requestGate(s.server, 20, clock);
    expect(await settled(gate.quiet())).toBe(true);
    const { answer } = await s.open();
    expect(gate.inFlight()).toBe(1);
    const waiting = gate.quiet();
    expect(await settled(waiting)).toBe(false);
    s.release();
    await answer;
    expect(await settled(waiting)).toBe(true);
    expect(gate.inFlight()).toBe(0);
  });

  it('a request that stays open holds the import no longer than the limit', async () => {
    const s = await holdingServer();
    const clock = manualClock();
    const gate = requestGate(s.server, 20, clock);
    const { answer } = await s.open();
    const waiting = gate.quiet();
    clock.advance(19);
    expect(await settled(waiting)).toBe(false);
    clock.advance(1);
    expect(await settled(waiting)).toBe(true);
    s.release();
    await answer;
  });
});
