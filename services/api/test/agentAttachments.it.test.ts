import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminClaimDetail, Message, UploadUrlResponse } from '@claims/contracts';
import { json, oneItemClaim, startHarness, type DemoUser, type Harness } from './support/backofficeHarness.js';
import { PNG, putUpload } from './support/uploads.js';

describe("an agent's message attachments", () => {
  let h: Harness;
  const cookies = new Map<DemoUser, string>();
  let claim: { claimId: string; token: string };
  const uploadUrl = (user: DemoUser, claimId: string, body: unknown) =>
    h.call({ method: 'POST', url: `/api/admin/claims/${claimId}/upload-url`, cookie: cookies.get(user), body });

  beforeAll(async () => {
    h = await startHarness();
    for (const user of ['acmeAgent', 'acmeViewer', 'kumoOwner'] as const) cookies.set(user, await h.login(user));
    claim = await h.fileClaim('acme-5008', oneItemClaim('hugo@example.com', 'f-1008-1', 'li-12'));
  });
  afterAll(async () => h?.stop());

  it("hands out an upload URL only to a member who may message on the claim's store, for accepted types", async () => {
    const body = { contentType: 'image/png', filename: 'label.png' };
    expect((await uploadUrl('kumoOwner', claim.claimId, body)).statusCode).toBe(404);
    expect((await uploadUrl('acmeViewer', claim.claimId, body)).statusCode).toBe(403);
    expect((await uploadUrl('acmeAgent', crypto.randomUUID(), body)).statusCode).toBe(404);
    expect(
      (await h.call({ method: 'POST', url: `/api/admin/claims/${claim.claimId}/upload-url`, body })).statusCode,
    ).toBe(401);
    const refused = await uploadUrl('acmeAgent', claim.claimId, {
      contentType: 'application/pdf',
      filename: 'invoice.pdf',
    });
    expect(refused.statusCode).toBe(415);
  });

  it('sends a message with the uploaded file, which the shopper sees on their claim', async () => {
    const signed = UploadUrlResponse.parse(
      json(await uploadUrl('acmeAgent', claim.claimId, { contentType: 'image/png', filename: 'label.png' })),
    );
    const put = await putUpload(h.runtime, signed, PNG);
    expect(put.statusCode, put.body).toBe(201);
    // The content must match the extension, as for shoppers.
    const fake = UploadUrlResponse.parse(
      json(await uploadUrl('acmeAgent', claim.claimId, { contentType: 'image/png', filename: 'fake.png' })),
    );
    const wrong = await putUpload(h.runtime, fake, Buffer.from('not a png'));
    expect(wrong.statusCode).toBe(415);

    const media = {
      downloadLink: signed.downloadLink,
      fileKey: signed.fileName,
      fileType: 'image/png',
      filename: 'label.png',
    };
    const sent = await h.call({
      method: 'POST',
      url: `/api/admin/claims/${claim.claimId}/messages`,
      cookie: cookies.get('acmeAgent'),
      body: { messageContent: 'Your return label.', medias: [media] },
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const detail = AdminClaimDetail.parse(
      json(
        await h.call({ method: 'GET', url: `/api/admin/claims/${claim.claimId}`, cookie: cookies.get('acmeAgent') }),
      ),
    );
    expect(detail.messages.at(-1)?.medias).toEqual([media]);
    const shopper = await h.call({ method: 'GET', url: `/api/claims/${claim.token}/messages` });
    const messages = Message.array().parse(json(shopper));
    expect(messages.find((m) => m.messageContent === 'Your return label.')?.medias).toEqual([media]);
    const file = await h.runtime.app.inject({ method: 'GET', url: new URL(signed.downloadLink).pathname });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(PNG)).toBe(true);
  });
});
