// HTTP requests from a chosen local address: the whole 127/8 is loopback on Linux, so a client socket bound to
// 127.0.0.2 reaches a server on 127.0.0.1 as a second real address (not a header anyone can write).
import http from 'node:http';

/** POST JSON from a chosen local address (127.0.0.x) with the given headers. */
export function postFrom(
  url: string,
  path: string,
  body: unknown,
  opts: { localAddress?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: any; headers: http.IncomingHttpHeaders }> {
  const target = new URL(path, url);
  const data = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        localAddress: opts.localAddress,
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(data), ...opts.headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : null, headers: res.headers }),
        );
      },
    );
    req.on('error', reject);
    req.end(data);
  });
}
