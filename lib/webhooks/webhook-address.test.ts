import { describe, expect, it } from 'vitest';
import { blockedWebhookHost } from './webhook-address';

describe('blockedWebhookHost', () => {
  it('blocks this machine and every non-public address range, however the address is written', () => {
    for (const url of [
      'http://127.0.0.1/',
      'http://127.1.2.3/',
      'http://2130706433/',
      'http://0x7f000001/',
      'http://localhost:3000/',
      'http://hooks.localhost/',
      'http://LOCALHOST/',
      'http://10.1.2.3/',
      'http://172.16.0.1/',
      'http://192.168.0.10/',
      'http://169.254.169.254/',
      'http://100.64.0.1/',
      'http://0.0.0.0/',
      'http://224.0.0.1/',
      'http://255.255.255.255/',
      'http://[::1]/',
      'http://[::]/',
      'http://[fe80::1]/',
      'http://[fc00::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[::ffff:a00:1]/',
    ]) {
      expect(blockedWebhookHost(new URL(url)), url).not.toBeNull();
    }
  });

  it('blocks the spellings the URL parser leaves alone or normalises: trailing dots, short and hex IPv4, IPv6 forms', () => {
    for (const url of [
      'http://localhost./x',
      'http://LOCALHOST./x',
      'http://localhost../x',
      'http://LocalHost/x',
      'http://foo.localhost./x',
      'http://a.b.localhost/x',
      'http://loc%61lhost./x',
      'http://127.1/',
      'http://0x7f.1/',
      'http://0177.0.0.1/',
      'http://127.0.0.1./',
      'http://0/',
      'http://2130706433/',
      'http://0x7f.0.0.1/',
      'http://0.0.0.0./',
      'http://[::ffff:127.0.0.1]/',
      'http://[0:0:0:0:0:ffff:7f00:1]/',
      'http://[::127.0.0.1]/',
      'http://[64:ff9b::127.0.0.1]/',
      'http://[2002:7f00:1::]/',
      'http://[fe80::1]/',
      'http://[FE80::abcd]/',
      'http://[100::1]/',
      'http://[2001:db8::1]/',
      'http://printer.local/',
      'http://nas.home.arpa./',
      'http://db.internal/',
    ]) {
      expect(blockedWebhookHost(new URL(url)), url).not.toBeNull();
    }
  });

  it('never lets a link-local address with a zone through: the URL parser refuses the form outright', () => {
    // The registration schema parses the URL first, so such a URL is a 400 before this check.
    expect(URL.canParse('http://[fe80::1%25eth0]/')).toBe(false);
  });

  it('lets public addresses and names through (names are checked again when delivery connects)', () => {
    for (const url of [
      'https://93.184.216.34/hook',
      'https://hooks.example.com/toolgate',
      'https://hooks.example.com./toolgate',
      'https://[2606:4700:4700::1111]/x',
      'http://8.8.8.8:8080/',
      'https://localhost.example.com/x',
      'https://mylocal.dev/x',
      'https://internal.example.org/x',
    ]) {
      expect(blockedWebhookHost(new URL(url)), url).toBeNull();
    }
  });
});
