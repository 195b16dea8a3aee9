import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  checkOutboundUrl,
  classifyAddress,
  createOutboundClient,
  OutboundRefusedError,
  type Resolver,
} from './index.ts';

/** A resolver answering from a table, as a DNS server under an attacker's control would. */
const table =
  (entries: Record<string, string | string[]>): Resolver =>
  async (host) => {
    const found = entries[host];
    if (!found) throw Object.assign(new Error(`${host} not found`), { code: 'ENOTFOUND' });
    return [found].flat().map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

describe('the address policy', () => {
  it.each([
    ['93.184.216.34', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['10.1.2.3', 'private'],
    ['172.20.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['127.0.0.1', 'private'],
    ['100.64.0.1', 'private'],
    ['198.18.0.1', 'private'],
    ['::1', 'private'],
    ['fc00::1', 'private'],
    ['::ffff:127.0.0.1', 'private'],
    ['::ffff:7f00:1', 'private'],
    ['[::ffff:10.0.0.1]', 'private'],
    ['64:ff9b::7f00:1', 'private'],
    ['2002:7f00:1::1', 'private'],
    ['169.254.169.254', 'forbidden'],
    ['::ffff:169.254.169.254', 'forbidden'],
    ['64:ff9b::a9fe:a9fe', 'forbidden'],
    ['fd00:ec2::254', 'forbidden'],
    ['fd00:ec2::23', 'forbidden'],
    ['fd00:0ec2:0:0:0:0:0:0023', 'forbidden'],
    ['100.100.100.200', 'forbidden'],
    ['::ffff:100.100.100.200', 'forbidden'],
    ['::ffff:6464:64c8', 'forbidden'],
    ['64:ff9b::6464:64c8', 'forbidden'],
    ['2002:6464:64c8::1', 'forbidden'],
    ['100.100.100.201', 'private'],
    ['fd00:ec2::1', 'private'],
    ['fe80::1', 'forbidden'],
    ['0.0.0.0', 'forbidden'],
    ['::', 'forbidden'],
    ['224.0.0.1', 'forbidden'],
    ['ff02::1', 'forbidden'],
    ['255.255.255.255', 'forbidden'],
    ['240.0.0.1', 'forbidden'],
  ])('classes %s as %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });

  it('reads only IP addresses', () => {
    expect(classifyAddress('example.com')).toBeUndefined();
  });
});

describe('checking a URL before it is stored', () => {
  const off = { allowPrivate: false, resolve: table({ 'hooks.example.com': '93.184.216.34' }) };
  const refusal = (url: string, policy = off) =>
    checkOutboundUrl(url, policy).then(
      () => 'accepted',
      (err: unknown) => (err instanceof OutboundRefusedError ? err.reason : String(err)),
    );

  it('accepts an https URL whose name resolves to a public address', async () => {
    expect((await checkOutboundUrl('https://hooks.example.com/in', off)).href).toBe(
      'https://hooks.example.com/in',
    );
  });

  it.each([
    ['http://hooks.example.com/', 'scheme'],
    ['ftp://hooks.example.com/', 'scheme'],
    ['not a url', 'invalid_url'],
    ['https://127.0.0.1/', 'address'],
    ['https://[::ffff:127.0.0.1]/', 'address'],
    ['https://[::1]/', 'address'],
    ['https://0x7f000001/', 'address'],
    ['https://2130706433/', 'address'],
    ['https://127.1/', 'address'],
    ['https://169.254.169.254/latest/meta-data', 'address'],
    ['https://nowhere.example.com/', 'unresolvable'],
  ])('refuses %s (%s)', async (url, reason) => {
    expect(await refusal(url)).toBe(reason);
  });

  it('refuses a name resolving to a private, loopback or metadata address, or with any such address', async () => {
    const resolve = table({
      'inside.example.com': '10.0.0.7',
      'loop.example.com': '127.0.0.1',
      'meta.example.com': '169.254.169.254',
      'mixed.example.com': ['93.184.216.34', '192.168.0.10'],
    });
    for (const host of ['inside', 'loop', 'meta', 'mixed'])
      expect(await refusal(`https://${host}.example.com/`, { allowPrivate: false, resolve })).toBe('address');
  });

  it('names the host given, never the address it resolved to (kept on the error for the logs)', async () => {
    const resolve = table({ 'db.corp.example.com': '10.20.30.40' });
    const err = (await checkOutboundUrl('https://db.corp.example.com/', {
      allowPrivate: false,
      resolve,
    }).catch((e: unknown) => e)) as OutboundRefusedError;
    expect(err).toBeInstanceOf(OutboundRefusedError);
    expect(err.message).toContain('db.corp.example.com');
    expect(err.message).not.toContain('10.20.30.40');
    expect(err.address).toBe('10.20.30.40');
  });

  it('with private targets allowed, takes http and loopback but never link-local or metadata addresses', async () => {
    const resolve = table({
      'loop.test': '127.0.0.1',
      'meta.test': '169.254.169.254',
      'meta6.test': 'fd00:ec2::254',
      'alibaba.test': '100.100.100.200',
    });
    const on = { allowPrivate: true, resolve };
    expect(await refusal('http://loop.test:8080/', on)).toBe('accepted');
    expect(await refusal('http://10.0.0.1/', on)).toBe('accepted');
    for (const url of [
      'http://meta.test/',
      'http://meta6.test/',
      'http://169.254.169.254/',
      'http://[fd00:ec2::254]/',
      'http://[::ffff:a9fe:a9fe]/',
      'http://[fe80::1]/',
      // Alibaba Cloud's metadata, inside carrier-grade NAT space, however it is written
      'http://alibaba.test/',
      'http://100.100.100.200/latest/meta-data',
      'http://1684301000/',
      'http://0x646464c8/',
      'http://100.100.25800/',
      'http://[::ffff:100.100.100.200]/',
      'http://[64:ff9b::6464:64c8]/',
      'http://[fd00:ec2::23]/',
    ])
      expect([url, await refusal(url, on)]).toEqual([url, 'address']);
    expect(await refusal('http://100.64.0.1/', on)).toBe('accepted');
  });
});

describe('the outbound client', () => {
  let server: http.Server;
  let port = 0;
  const hits: Array<{ path: string; host: string | undefined }> = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      hits.push({ path: req.url ?? '', host: req.headers.host });
      if (req.url === '/redirect') res.writeHead(302, { location: `http://127.0.0.1:${port}/inside` }).end();
      else if (req.url === '/big') res.end('x'.repeat(64 * 1024));
      else if (req.url === '/drip') {
        res.writeHead(200);
        const timer = setInterval(() => res.write('.'), 20);
        res.on('close', () => clearInterval(timer));
      } else res.end('ok');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  beforeEach(() => hits.splice(0));

  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => 'succeeded',
      (err: { code?: string; reason?: string }) => err.reason ?? err.code,
    );

  it('connects to the address it checked, and sends the name in the Host header', async () => {
    const client = createOutboundClient({
      allowPrivate: true,
      resolve: table({ 'receiver.test': '127.0.0.1' }),
    });
    const res = await client.get(`http://receiver.test:${port}/hello`);
    expect(res.status).toBe(200);
    expect(hits).toEqual([{ path: '/hello', host: `receiver.test:${port}` }]);
  });

  it('refuses at connection time a name that resolved publicly when it was registered (DNS rebinding)', async () => {
    let answers = 0;
    const rebinding: Resolver = async () => [
      { address: answers++ === 0 ? '93.184.216.34' : '127.0.0.1', family: 4 },
    ];
    const policy = { allowPrivate: false, resolve: rebinding };
    await checkOutboundUrl('https://rebind.example.com/', policy);
    const client = createOutboundClient(policy);
    // The refusal itself, with its reason, as one made before connecting.
    expect(await failure(client.get(`https://rebind.example.com:${port}/`))).toBe('address');
    expect(hits).toEqual([]);
  });

  it('refuses plain http, loopback literals and metadata addresses before connecting', async () => {
    const off = createOutboundClient({ allowPrivate: false });
    expect(await failure(off.get(`http://127.0.0.1:${port}/`))).toBe('scheme');
    expect(await failure(off.get(`https://127.0.0.1:${port}/`))).toBe('address');
    expect(await failure(off.get(`https://[::ffff:127.0.0.1]:${port}/`))).toBe('address');
    const on = createOutboundClient({
      allowPrivate: true,
      resolve: table({ 'meta.test': '169.254.169.254', 'alibaba.test': '100.100.100.200' }),
    });
    expect(await failure(on.get('http://169.254.169.254/latest/meta-data'))).toBe('address');
    expect(await failure(on.get('http://meta.test/'))).toBe('address');
    expect(await failure(on.get('http://100.100.100.200/latest/meta-data'))).toBe('address');
    expect(await failure(on.get('http://alibaba.test/'))).toBe('address');
    expect(hits).toEqual([]);
  });

  it('never follows a redirect', async () => {
    const client = createOutboundClient({ allowPrivate: true });
    const res = await client.get(`http://127.0.0.1:${port}/redirect`);
    expect(res.status).toBe(302);
    expect(hits.map((h) => h.path)).toEqual(['/redirect']);
  });

  it('bounds the answer it reads and the time a whole call takes', async () => {
    const client = createOutboundClient({ allowPrivate: true, maxResponseBytes: 1024, timeoutMs: 300 });
    expect(await failure(client.get(`http://127.0.0.1:${port}/big`))).toBe('ERR_BAD_RESPONSE');
    const started = Date.now();
    expect(await failure(client.get(`http://127.0.0.1:${port}/drip`))).toBe('ERR_CANCELED');
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
