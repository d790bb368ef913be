// The socket fixture's contract check can fail: a bare socket.io server (not ours) sends events that break the
// contract, and the fixture's sockets report each of them; one left unreported fails the test that received it.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAll, connect, contractMismatch, failOnMismatches, takeContractMismatches } from './socket-helpers';

let io: Server;
let url: string;
/** What the bare server sends to each socket that connects: [event, payload] pairs, then 'done'. */
let script: [string, unknown][] = [];

beforeAll(async () => {
  const http = createServer();
  io = new Server(http, { transports: ['websocket'] });
  io.on('connection', (socket) => {
    for (const [event, payload] of script) socket.emit(event, payload);
    socket.emit('session:expired', {});
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});
afterAll(async () => {
  closeAll();
  await io.close();
});

const deleted = { conversationId: 'c1', messageId: 'm1' };

/** Connects through the fixture and waits for the script to end (the events come right after the handshake). */
async function receiveScript() {
  let done!: () => void;
  const ended = new Promise<void>((resolve) => {
    done = resolve;
  });
  await connect(url, 'any', { onEvent: (event) => event === 'session:expired' && done() });
  await ended;
}

describe('socket fixture: every server event is checked against the contract', () => {
  it('names a missing field, a wrong type, an undeclared field and an unknown event; passes a good payload', () => {
    expect(contractMismatch('message:deleted', deleted)).toBeNull();
    expect(contractMismatch('message:deleted', { conversationId: 'c1' })).toMatch(/^message:deleted: messageId /);
    expect(contractMismatch('conversation:typing', { conversationId: 'c1', userId: 'u1', typing: 'yes' })).toMatch(
      /typing /,
    );
    expect(contractMismatch('message:deleted', { ...deleted, passwordHash: 'x' })).toBe(
      'message:deleted: fields the contract does not declare',
    );
    expect(contractMismatch('message:exploded', deleted)).toBe('message:exploded: not a server event of the contract');
  });

  it('a socket opened by the fixture reports every event that breaks the contract', async () => {
    script = [
      ['message:deleted', deleted],
      ['message:deleted', { conversationId: 'c1' }],
      ['presence:update', { userId: 'u1', status: 'SLEEPING', lastSeenAt: null }],
      ['message:deleted', { ...deleted, extra: 1 }],
    ];
    await receiveScript();
    const seen = takeContractMismatches();
    expect(seen).toHaveLength(3);
    expect(seen[0]).toMatch(/^message:deleted: messageId/);
    expect(seen[1]).toMatch(/^presence:update: status/);
    expect(seen[2]).toBe('message:deleted: fields the contract does not declare');
  });

  it('the check after each test throws, naming the event and the field, and clears what it reported', async () => {
    script = [['message:deleted', { conversationId: 'c1' }]];
    await receiveScript();
    expect(() => failOnMismatches()).toThrow(/break the contract[\s\S]*message:deleted: messageId/);
    expect(() => failOnMismatches()).not.toThrow();
  });

  // The same check runs as an afterEach hook of every file that uses the fixture: this test fails through it.
  it.fails('a mismatch nobody takes fails the test that received it', async () => {
    script = [['message:deleted', { conversationId: 'c1' }]];
    await receiveScript();
  });
});
