import { describe, expect, test } from 'vitest';
import { ipLiteral, refusedAddressClass, unmappedAddress } from './_addressPolicy.js';

describe('refusedAddressClass', () => {
  test.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '2001:4860:4860::8888'])(
    'allows the public unicast address %s',
    (address) => {
      expect(refusedAddressClass(address, false)).toBeUndefined();
    },
  );

  test.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['10.255.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.0.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::abcd', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fdff::1', 'unique-local'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.255', 'carrier-grade NAT'],
    ['255.255.255.255', 'broadcast'],
    ['239.1.2.3', 'multicast'],
    ['ff05::2', 'multicast'],
    ['192.0.0.8', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['fec0::1', 'site-local'],
    ['::ffff:7f00:1', 'IPv4-mapped, embedding loopback 127.0.0.1'],
    ['::ffff:8.8.8.8', 'IPv4-mapped, embedding unicast 8.8.8.8'],
    ['64:ff9b::808:808', 'NAT64'],
    ['2002:0a00:0001::1', '6to4'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['::7f00:1', 'non-global IPv6'],
    ['100::1', 'discard-only'],
    ['fe80::1%eth0', 'scoped (zone index)'],
    ['not-an-address', 'unparseable'],
    ['0x7f.1', 'loopback'],
  ])('refuses %s as %s', (address, addressClass) => {
    expect(refusedAddressClass(address, false)).toBe(addressClass);
  });

  test('the loopback switch lets loopback through and nothing else', () => {
    expect(refusedAddressClass('127.0.0.1', true)).toBeUndefined();
    expect(refusedAddressClass('127.8.9.10', true)).toBeUndefined();
    expect(refusedAddressClass('::1', true)).toBeUndefined();
    expect(refusedAddressClass('::ffff:127.0.0.1', true)).toBe('IPv4-mapped, embedding loopback 127.0.0.1');
    expect(refusedAddressClass('10.0.0.1', true)).toBe('private');
    expect(refusedAddressClass('169.254.169.254', true)).toBe('link-local');
    expect(refusedAddressClass('0.0.0.0', true)).toBe('unspecified');
  });
});

describe('ipLiteral', () => {
  test.each([
    ['127.0.0.1', '127.0.0.1'],
    ['[::1]', '::1'],
    ['[::ffff:7f00:1]', '::ffff:7f00:1'],
    ['[fe80::1]', 'fe80::1'],
    ['api.acme.com', undefined],
    ['localhost', undefined],
    ['1.2.3.4.example', undefined],
  ])('reads the URL hostname %s as %s', (hostname, literal) => {
    expect(ipLiteral(hostname)).toBe(literal);
  });

  test('takes hostnames as WHATWG URL normalises them', () => {
    for (const spelling of ['2130706433', '0177.0.0.1', '0x7f.1', '127.1', '0x7f000001']) {
      expect(ipLiteral(new URL(`http://${spelling}/`).hostname)).toBe('127.0.0.1');
    }
  });
});

describe('unmappedAddress', () => {
  test.each([
    ['::ffff:10.0.0.1', '10.0.0.1'],
    ['::FFFF:10.0.0.1', '10.0.0.1'],
    ['::ffff:a00:1', '10.0.0.1'],
    ['0:0:0:0:0:ffff:7f00:1', '127.0.0.1'],
    ['10.0.0.1', '10.0.0.1'],
    ['::1', '::1'],
    ['fd00::1', 'fd00::1'],
    ['::ffff:10.0.0.1%eth0', '::ffff:10.0.0.1%eth0'],
    ['not-an-address', 'not-an-address'],
    ['', ''],
  ])('reads %s as %s', (address, unmapped) => {
    expect(unmappedAddress(address)).toBe(unmapped);
  });
});
