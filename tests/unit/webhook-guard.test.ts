// Where webhooks may go and how they are signed: only public addresses unless the operator opens a
// network (every special range, IPv6 and IPv4-mapped included), HTTPS URLs without credentials,
// and signatures as the Standard Webhooks specification computes them (its own published example).
import { describe, expect, it } from 'vitest';
import { addressAllowed, resolveTarget, urlProblem } from '../../api/webhooks/address-guard.ts';
import { newSecret, signature, verifySignature } from '../../api/webhooks/signature.ts';

describe('webhook addresses', () => {
  it('allows public addresses and refuses private, loopback, link-local and other special ones', () => {
    for (const address of ['8.8.8.8', '93.184.216.34', '2606:4700:4700::1111']) expect(addressAllowed(address, []), address).toBe(true);
    const special = [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.9',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '192.0.2.10',
      '::1',
      '::',
      'fe80::1',
      'fd12:3456::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '2001:db8::1',
      'not an address',
    ];
    for (const address of special) expect(addressAllowed(address, []), address).toBe(false);
  });

  it('allows a private network only where the operator opened it', () => {
    expect(addressAllowed('127.0.0.1', ['127.0.0.0/8'])).toBe(true);
    expect(addressAllowed('::ffff:127.0.0.1', ['127.0.0.0/8'])).toBe(true);
    expect(addressAllowed('10.0.0.1', ['127.0.0.0/8'])).toBe(false);
    expect(addressAllowed('::1', ['127.0.0.0/8'])).toBe(false);
    expect(addressAllowed('::1', ['::1/128'])).toBe(true);
  });

  it('takes https URLs without credentials or fragments', () => {
    expect(urlProblem('https://hooks.example.org/mortgage?x=1')).toBeUndefined();
    expect(urlProblem('http://hooks.example.org/')).toMatch(/HTTPS only/);
    expect(urlProblem('https://user:pw@hooks.example.org/')).toMatch(/user name or password/);
    expect(urlProblem('https://hooks.example.org/#x')).toMatch(/fragment/);
    expect(urlProblem('hooks.example.org')).toMatch(/absolute https/);
  });

  it('refuses a name that resolves to loopback, naming the address, unless the operator allows it', async () => {
    await expect(resolveTarget('https://localhost/hook', [])).rejects.toThrow(/localhost resolves to .*127\.0\.0\.1|::1/);
    await expect(resolveTarget('https://[::1]:8443/hook', [])).rejects.toThrow(/resolves to ::1/);
    const allowed = await resolveTarget('https://localhost:8443/hook', ['127.0.0.0/8', '::1/128']);
    expect(['127.0.0.1', '::1']).toContain(allowed.address);
    expect(allowed.url.port).toBe('8443');
  });
});

describe('webhook signatures', () => {
  it('computes the Standard Webhooks example signature', () => {
    // The example of the specification (standard-webhooks, "Signature scheme").
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const header = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';
    expect(signature(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).toBe(header);
    expect(verifySignature(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}', `v1,other ${header}`)).toBe(true);
    expect(verifySignature(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265331, '{"test": 2432232314}', header)).toBe(false);
  });

  it('gives each hook a secret of its own', () => {
    const [first, second] = [newSecret(), newSecret()];
    expect(first).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(first).not.toBe(second);
  });
});
