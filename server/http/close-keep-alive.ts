// A response still being sent when the server starts closing leaves a keep-alive socket behind it: Node closes the
// idle sockets once, when close begins, and Fastify answers only requests that arrive later with `Connection:
// close`. Such a socket would then hold the close for the whole keep-alive timeout (72 s). So while closing, every
// response that finishes releases the sockets that have become idle.
import fp from 'fastify-plugin';

export const closeKeepAlive = fp(
  async (app) => {
    let closing = false;
    app.addHook('preClose', async () => {
      closing = true;
    });
    app.addHook('onResponse', async () => {
      // After Node's own 'finish' handler has detached the socket from the response.
      if (closing) setImmediate(() => app.server.closeIdleConnections());
    });
  },
  { name: 'close-keep-alive' },
);
