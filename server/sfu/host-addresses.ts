// The addresses the SFU advertises as ICE host candidates: loopback plus this machine's LAN IPv4 addresses unless
// configured (SFU_HOST_CANDIDATES), e.g. to add the address a NAT forwards to this machine.
import os from 'node:os';

export function defaultHostAddresses(): string[] {
  const lan = Object.values(os.networkInterfaces())
    .flat()
    .filter((a): a is os.NetworkInterfaceInfo => !!a && a.family === 'IPv4' && !a.internal)
    .map((a) => a.address)
    .filter((a) => !a.startsWith('169.254.'));
  return ['127.0.0.1', ...new Set(lan)];
}
