// A userspace UDP relay for the network-condition specs (this kernel has no netem): clients send to its port,
// it forwards to a target (here coturn) from one upstream socket per client, and drops a chosen share of the
// datagrams in both directions.
import dgram from 'node:dgram';

export interface UdpRelay {
  port: number;
  /** Share (0–1) of datagrams dropped, each direction. */
  setLoss(share: number): void;
  close(): Promise<void>;
}

export async function startUdpRelay(targetPort: number, targetHost = '127.0.0.1'): Promise<UdpRelay> {
  let loss = 0;
  const front = dgram.createSocket('udp4');
  const upstreams = new Map<string, dgram.Socket>();
  const dropped = () => loss > 0 && Math.random() < loss;
  front.on('message', (msg, from) => {
    const key = `${from.address}:${from.port}`;
    let up = upstreams.get(key);
    if (!up) {
      const socket = dgram.createSocket('udp4');
      socket.on('message', (back) => {
        if (!dropped()) front.send(back, from.port, from.address);
      });
      socket.on('error', () => {});
      socket.bind(0, '127.0.0.1');
      upstreams.set(key, socket);
      up = socket;
    }
    if (!dropped()) up.send(msg, targetPort, targetHost);
  });
  front.on('error', () => {});
  await new Promise<void>((resolve) => front.bind(0, '127.0.0.1', () => resolve()));
  return {
    port: front.address().port,
    setLoss: (share) => {
      loss = share;
    },
    close: async () => {
      for (const s of upstreams.values()) s.close();
      await new Promise<void>((resolve) => front.close(() => resolve()));
    },
  };
}
