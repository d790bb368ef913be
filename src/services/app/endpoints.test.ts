import { describe, expect, it } from 'vitest';
import { apiBaseUrl, type PageLocation, socketUrl } from './endpoints';

const at = (url: string): PageLocation => {
  const u = new URL(url);
  return { protocol: u.protocol, hostname: u.hostname, port: u.port, host: u.host, origin: u.origin };
};

describe('API base path (docs/behaviour.md §7)', () => {
  it('is /api by default, {host}/api on localhost off 5173, and a configured URL wins', () => {
    expect(apiBaseUrl(at('https://chat.example.org/contacts'))).toBe('/api');
    expect(apiBaseUrl(at('http://localhost:5173/'))).toBe('/api');
    expect(apiBaseUrl(at('http://localhost:4000/'))).toBe('http://localhost:4000/api');
    expect(apiBaseUrl(at('http://localhost:5173/'), { apiUrl: 'https://api.example.org/v1/' })).toBe(
      'https://api.example.org/v1',
    );
  });
});

describe('socket address (docs/behaviour.md §7)', () => {
  it('same origin on localhost:5173 and elsewhere, port 4000 on other localhost ports, a configured one wins', () => {
    expect(socketUrl(at('http://localhost:5173/'))).toBe('http://localhost:5173');
    expect(socketUrl(at('http://localhost:8080/'))).toBe('http://localhost:4000');
    expect(socketUrl(at('https://chat.example.org/'))).toBe('https://chat.example.org');
    expect(socketUrl(at('http://127.0.0.1:39123/'))).toBe('http://127.0.0.1:39123');
    expect(socketUrl(at('http://localhost:5173/'), { socketUrl: 'wss://rt.example.org' })).toBe('wss://rt.example.org');
  });

  it('stays on the same origin in a production build served by the API server itself', () => {
    expect(socketUrl(at('http://localhost:8080/'), { servedByApi: true })).toBe('http://localhost:8080');
    expect(socketUrl(at('http://localhost:8080/'), { servedByApi: false })).toBe('http://localhost:4000');
  });
});
