import net from 'node:net';
import { isLoopbackHost } from './network-guard.ts';

describe('network guard', () => {
  it('tells loopback hosts from others', () => {
    expect(isLoopbackHost('127.0.0.1')).toBe(true);
    expect(isLoopbackHost('[::1]')).toBe(true);
    expect(isLoopbackHost('localhost')).toBe(true);
    expect(isLoopbackHost('10.0.0.5')).toBe(false);
    expect(isLoopbackHost('example.com')).toBe(false);
  });

  it('refuses a connection to an address outside the machine', () => {
    expect(() => net.connect({ host: '192.0.2.10', port: 80 })).toThrow(/Outbound network refused/);
  });

  it('lets a loopback connection through', async () => {
    const server = net.createServer((s) => s.end());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as net.AddressInfo).port;
    const socket = net.connect({ host: '127.0.0.1', port });
    await new Promise((r) => socket.once('connect', r));
    socket.destroy();
    server.close();
  });
});
