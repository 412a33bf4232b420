import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClaimSession, CustomerOrder, SessionStatus } from '@claims/contracts';
import type { Runtime } from '../src/index.js';
import { startPgliteRuntime, type PgliteRuntime } from './support/pgliteRuntime.js';

/** A shopper's draft holds their address and signature: reading or deleting it takes the order's email. */

let started: PgliteRuntime;
let runtime: Runtime;

beforeAll(async () => {
  started = await startPgliteRuntime('draft-proof');
  runtime = started.runtime;
});

afterAll(() => started?.stop());

describe("draft sessions without the order's email", () => {
  it('answer 404 to GET and DELETE with only the order id or a wrong email, and the draft stays', async () => {
    const lookup = await runtime.app.inject({
      method: 'GET',
      url: '/api/order-lookup?email=ava@example.com&order=1001',
    });
    const order = CustomerOrder.parse(lookup.json());
    const orderId = order.systemOrderId;
    const saved = await runtime.app.inject({
      method: 'PUT',
      url: '/api/sessions',
      payload: { orderId, email: 'ava@example.com', status: SessionStatus.options[0] },
    });
    expect(saved.statusCode).toBe(200);
    const session = ClaimSession.parse(saved.json());

    for (const url of [
      `/api/sessions?orderId=${orderId}`,
      `/api/sessions?orderId=${orderId}&email=mallory@example.com`,
    ]) {
      const res = await runtime.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain('ava@example.com');
    }
    for (const url of [`/api/sessions/${session.id}`, `/api/sessions/${session.id}?email=mallory@example.com`]) {
      expect((await runtime.app.inject({ method: 'DELETE', url })).statusCode, url).toBe(404);
    }

    const still = await runtime.app.inject({
      method: 'GET',
      url: `/api/sessions?orderId=${orderId}&email=AVA@example.com`,
    });
    expect(still.statusCode).toBe(200);
    expect(ClaimSession.parse(still.json()).id).toBe(session.id);
  });

  it('are announced by the lookup, so the portal asks for a draft only when one is saved', async () => {
    const lookUp = async () =>
      CustomerOrder.parse(
        (await runtime.app.inject({ method: 'GET', url: '/api/order-lookup?email=ava@example.com&order=1001' })).json(),
      );
    const before = await lookUp();
    const session = await runtime.app.inject({
      method: 'GET',
      url: `/api/sessions?orderId=${before.systemOrderId}&email=ava@example.com`,
    });
    expect(before.hasDraft).toBe(session.statusCode === 200);
    const saved = ClaimSession.parse(
      (
        await runtime.app.inject({
          method: 'PUT',
          url: '/api/sessions',
          payload: { orderId: before.systemOrderId, email: 'ava@example.com', status: SessionStatus.options[0] },
        })
      ).json(),
    );
    expect((await lookUp()).hasDraft).toBe(true);
    const deleted = await runtime.app.inject({
      method: 'DELETE',
      url: `/api/sessions/${saved.id}?email=ava@example.com`,
    });
    expect(deleted.statusCode).toBeLessThan(300);
    expect((await lookUp()).hasDraft).toBe(false);
  });
});
