// The fuzz tests' leak check (tests/fuzz/arbitraries.ts): what the caller sent may come back in a
// message, even cut short, and is not a leak; SQL or a stack trace the caller did not send is.
import { describe, expect, it } from 'vitest';
import { invalidValue } from '../../api/platform/contract/messages.ts';
import { leaks, stringsIn } from '../fuzz/arbitraries.ts';

// The counterexample a fuzz run found: the message shows the array cut at 80 characters, inside
// the hostile string, so the whole string never appears to be scrubbed.
const sent = { limit: ['10000000', '1.4616352696230782e-267', "' UNION SELECT key_hash FROM api_keys --"] };
const message = invalidValue(['limit'], sent.limit, 'Give a whole number from 1 to 45.');

describe('the fuzz leak check', () => {
  it("does not count the caller's own value, cut short by a message, as a leak", () => {
    expect(message).toContain('SELECT key_hash FROM api_keys ...');
    expect(leaks(message, stringsIn(sent))).toBeUndefined();
  });

  it('still finds SQL the caller did not send', () => {
    expect(leaks(`${message} at SELECT key_hash FROM api_keys WHERE id = $1`, stringsIn(sent))).toBeDefined();
    expect(leaks(message, [])).toBeDefined();
  });
});
