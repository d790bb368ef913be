// Larger UDP receive buffers for every socket this process binds (werift's ICE sockets included), as a deployment
// would set them (LiveKit asks for net.core.rmem_max of several MB). On this shared 2-core machine a process pinned
// to a core waits tens of milliseconds whenever other work runs there, and the kernel's default buffer (208 KiB,
// about 90 packets of 1,200 bytes) overflows at a few thousand packets/s: that loss would measure the machine's
// other work, not the SFU. Unprivileged processes get up to net.core.rmem_max. BENCH_UDP_RCVBUF=default keeps the
// kernel's default.
import dgram from 'node:dgram';

const wanted = process.env.BENCH_UDP_RCVBUF ?? String(4 * 2 ** 20);
if (wanted !== 'default') {
  const size = Number(wanted);
  const bind = dgram.Socket.prototype.bind;
  dgram.Socket.prototype.bind = function (this: dgram.Socket, ...args: unknown[]) {
    this.once('listening', () => {
      try {
        this.setRecvBufferSize(size);
      } catch {
        // above rmem_max for an unprivileged process: the kernel's default stays
      }
    });
    return (bind as (...a: unknown[]) => dgram.Socket).apply(this, args);
  } as typeof bind;
}
