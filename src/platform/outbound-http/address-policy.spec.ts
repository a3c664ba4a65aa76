import dns, { type LookupAddress } from 'node:dns';
import { promisify } from 'node:util';
import { isPublicAddress, publicOnlyLookup } from './address-policy';
import { OutboundHttpError } from './outbound-http.error';

describe('isPublicAddress', () => {
  it.each([
    '93.184.215.14',
    '8.8.8.8',
    '172.15.255.255',
    '172.32.0.1',
    '100.63.255.255',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4007:80e::200e',
    '::ffff:8.8.8.8',
  ])('allows public unicast %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'broadcast'],
    ['224.0.0.1', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'documentation'],
    ['::1', 'IPv6 loopback'],
    ['::', 'IPv6 unspecified'],
    ['fe80::1', 'IPv6 link-local'],
    ['fe80::1%eth0', 'IPv6 link-local with zone'],
    ['fc00::1', 'IPv6 unique-local'],
    ['fd12:3456::1', 'IPv6 unique-local'],
    ['ff02::1', 'IPv6 multicast'],
    ['2001:db8::1', 'IPv6 documentation'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, hex form'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::7f00:1', 'IPv4-compatible loopback'],
    ['64:ff9b::7f00:1', 'NAT64 of loopback'],
    ['2002:7f00:1::', '6to4 of loopback'],
    ['not-an-ip', 'not an address'],
    ['', 'empty'],
  ])('refuses %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
});

describe('publicOnlyLookup', () => {
  const lookupAll = promisify(
    (host: string, callback: (error: Error | null, result?: unknown) => void) =>
      publicOnlyLookup(host, { all: true }, (error, addresses) => callback(error, addresses)),
  );

  function answerDns(addresses: LookupAddress[]): jest.SpyInstance {
    return jest
      .spyOn(dns, 'lookup')
      .mockImplementation(((
        _host: string,
        _options: unknown,
        callback: (error: Error | null, addresses: LookupAddress[]) => void,
      ) => callback(null, addresses)) as unknown as typeof dns.lookup);
  }

  afterEach(() => jest.restoreAllMocks());

  it('passes public answers through, in the shape net.connect asked for', async () => {
    answerDns([
      { address: '93.184.215.14', family: 4 },
      { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
    ]);
    await expect(lookupAll('example.test')).resolves.toEqual([
      { address: '93.184.215.14', family: 4 },
      { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
    ]);
    const single = await new Promise((resolve) =>
      publicOnlyLookup('example.test', {}, (error, address, family) =>
        resolve({ error, address, family }),
      ),
    );
    expect(single).toEqual({ error: null, address: '93.184.215.14', family: 4 });
  });

  it('refuses a host when any answer is private', async () => {
    answerDns([
      { address: '93.184.215.14', family: 4 },
      { address: '10.1.2.3', family: 4 },
    ]);
    const error = await lookupAll('mixed.test').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutboundHttpError);
    expect(error).toMatchObject({
      code: 'address_not_allowed',
      message: expect.stringContaining('mixed.test (10.1.2.3)'),
    });
  });

  it('refuses IPv4-mapped loopback answers', async () => {
    answerDns([{ address: '::ffff:127.0.0.1', family: 6 }]);
    await expect(lookupAll('mapped.test')).rejects.toMatchObject({ code: 'address_not_allowed' });
  });

  it('passes DNS failures through unchanged', async () => {
    const failure = Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.test'), {
      code: 'ENOTFOUND',
    });
    jest
      .spyOn(dns, 'lookup')
      .mockImplementation(((_host: string, _options: unknown, callback: (error: Error) => void) =>
        callback(failure)) as unknown as typeof dns.lookup);
    await expect(lookupAll('nowhere.test')).rejects.toBe(failure);
  });
});
