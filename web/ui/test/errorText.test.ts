import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { errorText } from '../src/index.js';
import { HttpError, request, TIMEOUT_MESSAGE } from '../src/httpClient.js';

const FALLBACK = 'Your claim could not be submitted. Please try again.';

/** The server's answer, as the shared client receives it (fetch is the boundary, not the code under test). */
function answer(status: number, body: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })),
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('error text shown for a failed call', () => {
  it("shows the API's own message from an {error, message} body", async () => {
    answer(409, { error: 'already_claimed', message: 'Item li-2 already has a claim.' });
    const failure = await request('POST', 'claims/acme-5001', { body: {}, schema: z.unknown() }).catch(
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(HttpError);
    expect(errorText(failure, FALLBACK)).toBe('Item li-2 already has a claim.');
  });

  it("keeps a refusal's details, so a form shows each under its field", async () => {
    const details = [{ path: 'body.conditions.0.value', message: 'claimValue needs a number of at least 0.' }];
    answer(400, { error: 'validation_failed', message: 'The request is not valid.', details });
    const failure = await request('POST', 'stores/s/rules', { body: {}, schema: z.unknown() }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(HttpError);
    expect((failure as HttpError).details).toEqual(details);
  });

  it('says what failed in plain words when the answer carries no error body', async () => {
    answer(502, '<html>Bad gateway</html>');
    const failure = await request('POST', 'claims/acme-5001', { body: {}, schema: z.unknown() }).catch(
      (e: unknown) => e,
    );
    expect(errorText(failure, FALLBACK)).toBe('Request failed with status 502');
  });

  it('keeps the timeout text (docs/product.md#messages-the-shopper-reads) and gives the fallback for a network failure or an unexpected value', () => {
    expect(errorText(new Error(TIMEOUT_MESSAGE), FALLBACK)).toBe('The operation was aborted due to timeout');
    expect(errorText(new TypeError('Failed to fetch'), FALLBACK)).toBe(FALLBACK);
    expect(errorText('boom', FALLBACK)).toBe(FALLBACK);
    expect(errorText(undefined)).toBe('Something went wrong. Try again.');
  });
});

describe('an answer parsed with a schema still loading', () => {
  it('parses the answer once the schema has loaded, and raises the HTTP error without waiting for it', async () => {
    answer(200, { claimNumber: 'C-1' });
    const schema = z.object({ claimNumber: z.string() });
    await expect(request('GET', 'claims/t', { schema: Promise.resolve(schema) })).resolves.toEqual({
      claimNumber: 'C-1',
    });

    answer(404, { error: 'not_found', message: 'No claim for that link.' });
    const neverLoads = new Promise<typeof schema>(() => undefined);
    await expect(request('GET', 'claims/t', { schema: neverLoads })).rejects.toMatchObject({
      status: 404,
      message: 'No claim for that link.',
    });
  });
});
