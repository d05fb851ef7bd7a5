// The rate limit's rules that need no HTTP (server/domain/rate-limit-rules.ts): the Retry-After a
// refusal gives, and the counter a client address counts on.
import { describe, expect, it } from 'vitest';
import { addressKey, retryAfterSeconds } from '../../server/domain/rate-limit-rules.js';

describe('Retry-After of a 429', () => {
  it('is never below 1 second, even for a window ending now or already past', () => {
    expect(retryAfterSeconds(0, 60_000)).toBe(1);
    expect(retryAfterSeconds(-5_000, 60_000)).toBe(1);
    expect(retryAfterSeconds(200, 60_000)).toBe(1);
  });

  it('is the seconds left in the window, rounded up; the whole window when the counter gives no time left', () => {
    expect(retryAfterSeconds(2_500, 60_000)).toBe(3);
    expect(retryAfterSeconds(undefined, 60_000)).toBe(60);
  });
});

describe('the counter key of a client address', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['::ffff:203.0.113.7', '::ffff:203.0.113.7'],
    ['2001:db8:abcd:12ff::1', '2001:0db8:abcd:1200::/56'],
    ['2001:DB8:ABCD:1234:5678:9abc:def0:1', '2001:0db8:abcd:1200::/56'],
    ['::1', '0000:0000:0000:0000::/56'],
    ['fe80::', 'fe80:0000:0000:0000::/56'],
    // One zero group: the group after it is the fourth.
    ['2001:db8::ff00:2:3:4:5', '2001:0db8:0000:ff00::/56'],
    // Five zero groups: the fourth is one of them.
    ['2001::ab00:1', '2001:0000:0000:0000::/56'],
  ])('of %s is %s: IPv6 addresses count by their /56 network', (address, key) => {
    expect(addressKey(address)).toBe(key);
  });
});
