import { describe, expect, it } from 'vitest';
import { signWebhook } from '../../src/webhooks/signature.js';

describe('webhook signature', () => {
  it('signs like the Standard Webhooks reference test vector', () => {
    expect(
      signWebhook(
        'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        'msg_p5jXN8AQM9LWM0D4loKWxJek',
        1614265330,
        '{"test": 2432232314}',
      ),
    ).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });
});
