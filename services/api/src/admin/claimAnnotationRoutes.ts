import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AddLabelRequest, AddNoteRequest, ApiError, ClaimNote, ClaimNoteList, ClaimTags, Label, MetadataKeyParam, SetMetadataRequest,
  type Claim,
} from '@claims/contracts';
import type { RecordedEvent } from '@claims/event-store';
import type { AppContext } from '../context.js';
import { executeClaimCommand } from '../commands/executeClaimCommand.js';
import { loadClaim } from '../commands/claimStream.js';
import { actorOf, permissionsAt } from '../auth/principal.js';
import { authorizedClaim, claimNotFound } from './claimViews.js';
import { metaOf } from './adminClaimRoutes.js';

const ClaimParams = z.object({ claimId: z.string().min(1).max(100) });
const errors = { 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError } as const;

const tagsOf = (claim: Claim, version: number): ClaimTags => ({ claimId: claim.id, labels: claim.labels, metadata: claim.metadata, version });

/** The notes of a claim's stream, oldest first. */
export const notesOf = (events: readonly RecordedEvent[]): ClaimNote[] =>
  events.filter((e) => e.type === 'ClaimNoteAdded').map((e) => {
    const data = e.data as { noteId: string; body: string; author: ClaimNote['author']; createdAt: string };
    return { id: data.noteId, body: data.body, author: data.author, createdAt: data.createdAt, version: e.streamVersion };
  });

/**
 * The back-office's own marks on a claim, each an event in the claim's stream: internal notes (never
 * in the shopper's view), labels and metadata. Each change may carry `expectedVersion`.
 */
export const claimAnnotationRoutes = (ctx: AppContext): FastifyPluginAsyncZod => async (app) => {
  app.get('/api/admin/claims/:claimId/notes', {
    config: { auth: 'user' },
    schema: { tags: ['back-office'], summary: 'The claim\'s internal notes, oldest first', params: ClaimParams, response: { 200: ClaimNoteList, ...errors } },
  }, async (request) => {
    const { events } = await authorizedClaim(ctx, request, 'claim-note:read', request.params.claimId);
    return { data: notesOf(events) };
  });

  app.post('/api/admin/claims/:claimId/notes', {
    config: { auth: 'user' },
    schema: {
      tags: ['back-office'], summary: 'Add an internal note (never shown to the shopper)',
      params: ClaimParams, body: AddNoteRequest, response: { 201: ClaimNote, ...errors },
    },
  }, async (request, reply) => {
    const { claim } = await authorizedClaim(ctx, request, 'claim-note:create', request.params.claimId);
    const principal = request.requirePrincipal();
    const noteId = randomUUID();
    await executeClaimCommand(ctx, {
      type: 'AddClaimNote', claimId: claim.id, noteId, actor: actorOf(principal), body: request.body.body, now: ctx.now(),
    }, metaOf(principal, request.id), request.body.expectedVersion);
    const { events } = await loadClaim(ctx, claim.id);
    return reply.code(201).send(notesOf(events).find((n) => n.id === noteId)!);
  });

  app.post('/api/admin/claims/:claimId/labels', {
    config: { auth: 'user' },
    schema: {
      tags: ['back-office'], summary: 'Add a label (adding one the claim has changes nothing)',
      params: ClaimParams, body: AddLabelRequest, response: { 200: ClaimTags, ...errors },
    },
  }, async (request) => {
    const { claim } = await authorizedClaim(ctx, request, 'label:add', request.params.claimId);
    const principal = request.requirePrincipal();
    const result = await executeClaimCommand(ctx, { type: 'AddClaimLabel', claimId: claim.id, label: request.body.label },
      metaOf(principal, request.id), request.body.expectedVersion);
    return tagsOf(result.claim, result.version);
  });

  app.delete('/api/admin/claims/:claimId/labels/:label', {
    config: { auth: 'user' },
    schema: {
      tags: ['back-office'], summary: 'Remove a label (removing one the claim lacks changes nothing)',
      params: ClaimParams.extend({ label: Label }), querystring: z.object({ expectedVersion: z.coerce.number().int().nonnegative().optional() }),
      response: { 200: ClaimTags, ...errors },
    },
  }, async (request) => {
    const { claim } = await authorizedClaim(ctx, request, 'label:remove', request.params.claimId);
    const principal = request.requirePrincipal();
    const result = await executeClaimCommand(ctx, { type: 'RemoveClaimLabel', claimId: claim.id, label: request.params.label },
      metaOf(principal, request.id), request.query.expectedVersion);
    return tagsOf(result.claim, result.version);
  });

  app.put('/api/admin/claims/:claimId/metadata/:key', {
    config: { auth: 'user' },
    schema: {
      tags: ['back-office'], summary: 'Set one metadata value: metadata:create for a new key, metadata:update for an existing one',
      params: ClaimParams.extend({ key: MetadataKeyParam }), body: SetMetadataRequest, response: { 200: ClaimTags, ...errors },
    },
  }, async (request) => {
    const { claimId, key } = request.params;
    const { claim, version } = await loadClaim(ctx, claimId);
    if (!claim) throw claimNotFound();
    const exists = Object.hasOwn(claim.metadata, key);
    const principal = request.authorize(exists ? 'metadata:update' : 'metadata:create', claim.storeId, claimNotFound);
    // A create-only caller decided on "the key is new": pin that version, so a key created meanwhile is a 409, not an update.
    const mayUpdate = exists || permissionsAt(principal, claim.storeId)?.has('metadata:update');
    const result = await executeClaimCommand(ctx, { type: 'SetClaimMetadata', claimId: claim.id, key, value: request.body.value },
      metaOf(principal, request.id), request.body.expectedVersion ?? (mayUpdate ? undefined : version));
    return tagsOf(result.claim, result.version);
  });
};
