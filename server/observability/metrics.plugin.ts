// Prometheus figures of this process (GET /metrics): HTTP latency by route pattern, sockets, messages, pushes,
// search time, the embedded media server's calls and Node's own (event-loop lag, memory, CPU). One registry per
// server instance, not prom-client's global one: tests build several servers in one process. Recording is a
// counter increment or one histogram observation; the gauges are read only when scraped (collect callbacks).
import fp from 'fastify-plugin';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { forbidden } from '../http/errors';
import { metricsAccess } from './metrics-access';

export interface Metrics {
  registry: Registry;
  /** Messages stored by a send (forwarded copies included). */
  messagesSent: Counter;
  /** Web Push messages the push service accepted. */
  pushSent: Counter;
  /** Web Push messages that failed: `reason` gone (subscription ended), failed (refused or unreachable). */
  pushFailed: Counter<'reason'>;
  searchDuration: Histogram;
  /** Guests at call doors (docs/behaviour.md §10.40), by what happened: knocked, admitted, denied, removed, refused. */
  guests: Counter<'event'>;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

/** The route label of a request that matched no route (a 404), so raw URLs never become labels. */
export const UNMATCHED_ROUTE = 'unmatched';

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const metricsPlugin = fp(
  async (app) => {
    const { config, mediaRooms, realtime } = app;
    const registry = new Registry();
    const registers = [registry];
    collectDefaultMetrics({ register: registry });

    const http = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests by route pattern, method and status',
      labelNames: ['route', 'method', 'status'] as const,
      buckets: SECONDS,
      registers,
    });
    new Gauge({
      name: 'beseda_sockets_connected',
      help: 'Realtime sockets connected to this process',
      registers,
      collect() {
        this.set(realtime.localSockets());
      },
    });
    const media = () => mediaRooms.stats() ?? { rooms: 0, participants: 0, packetsIn: 0, packetsOut: 0 };
    const mediaGauge = (name: string, help: string, read: (s: ReturnType<typeof media>) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read(media()));
        },
      });
    mediaGauge('beseda_sfu_rooms', 'Calls (rooms) on the embedded media server of this process', (s) => s.rooms);
    mediaGauge('beseda_sfu_participants', 'Participants in those calls', (s) => s.participants);
    mediaGauge(
      'beseda_sfu_packets_received',
      'RTP packets received on the tracks of current calls',
      (s) => s.packetsIn,
    );
    mediaGauge(
      'beseda_sfu_packets_forwarded',
      'RTP packets forwarded to subscribers of current calls',
      (s) => s.packetsOut,
    );

    new Gauge({
      name: 'beseda_guest_sockets_connected',
      help: 'Guests (people without an account) waiting or in a call, connected to this process',
      registers,
      collect() {
        this.set(realtime.guests.localSockets());
      },
    });

    const metrics: Metrics = {
      registry,
      messagesSent: new Counter({ name: 'beseda_messages_sent_total', help: 'Messages sent', registers }),
      pushSent: new Counter({ name: 'beseda_push_sent_total', help: 'Web Push messages accepted', registers }),
      pushFailed: new Counter({
        name: 'beseda_push_failed_total',
        help: 'Web Push messages not delivered, by reason (gone, failed)',
        labelNames: ['reason'] as const,
        registers,
      }),
      searchDuration: new Histogram({
        name: 'beseda_search_duration_seconds',
        help: 'Message searches, from the request to the answer',
        buckets: SECONDS,
        registers,
      }),
      guests: new Counter({
        name: 'beseda_guests_total',
        help: 'Guests at call doors, by event (knocked, admitted, denied, removed, refused, ended)',
        labelNames: ['event'] as const,
        registers,
      }),
    };
    app.decorate('metrics', metrics);

    // On the root: every route registered after this plugin is measured, under its pattern (/api/messages/:id).
    app.addHook('onResponse', (req, reply, done) => {
      http.observe(
        { route: req.routeOptions.url ?? UNMATCHED_ROUTE, method: req.method, status: String(reply.statusCode) },
        reply.elapsedTime / 1000,
      );
      done();
    });

    app.get('/metrics', async (req, reply) => {
      const access = metricsAccess(req.ip, req.headers.authorization, config.metricsToken);
      if (access === 'wrong-token') throw forbidden('Неверный токен метрик');
      if (access === 'no-token')
        throw forbidden('Метрики доступны только с этого компьютера или с токеном METRICS_TOKEN');
      reply.type(registry.contentType);
      return registry.metrics();
    });
  },
  {
    name: 'metrics',
    decorators: { fastify: ['config', 'mediaRooms', 'realtime'] },
    dependencies: ['base', 'realtime', 'media-rooms'],
  },
);
