import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AddLabelRequest,
  AddNoteRequest,
  ClaimNote,
  ClaimNoteList,
  ClaimTags,
  Label,
  MetadataKeyParam,
  SetMetadataRequest,
  type Claim,
  type ClaimCommand,
  type Permission,
  ClaimParams,
} from '@claims/contracts';
import { storedDomainEvent } from '@claims/event-store';
import { claimDecider } from '@claims/domain';
import type { AppContext, RequestMeta } from '../context.js';
import { handleCommand } from '../eventsourcing/commandHandler.js';
import { actorOf, permissionsAt } from '../http/principal.js';
import { authorizedClaim, claimNotFound, loadClaim } from '../http/authorizedClaim.js';
import { created } from '../http/claimEvents.js';
import { metaOf } from '../http/requestMeta.js';
import { errorResponses } from '../http/errorResponses.js';

const errors = errorResponses(400, 401, 403, 404, 409);

const tagsOf = ({ state, version }: { state: Claim | null; version: number }): ClaimTags => ({
  claimId: state!.id,
  labels: state!.labels,
  metadata: state!.metadata,
  version,
});

/** The notes among a claim's events, each with the stream version it was recorded at, oldest first. */
const notesOf = (events: ReadonlyArray<{ type: string; data: unknown; streamVersion: number }>): ClaimNote[] =>
  events.flatMap((e) => {
    const event = storedDomainEvent(e);
    if (event.type !== 'ClaimNoteAdded') return [];
    const { noteId, body, author, createdAt } = event.data;
    return [{ id: noteId, body, author, createdAt, version: e.streamVersion }];
  });

/** One annotation command on a claim the caller was authorised for. */
const annotate = (
  ctx: AppContext,
  claim: Claim,
  meta: RequestMeta,
  command: ClaimCommand,
  expectedVersion: number | undefined,
) =>
  handleCommand(ctx, {
    decider: claimDecider,
    streamId: claim.id,
    storeId: claim.storeId,
    meta,
    command,
    expectedVersion,
  });

/**
 * The back-office's own marks on a claim, each an event in the claim's stream: internal notes (never
 * in the shopper's view), labels and metadata. Each change may carry `expectedVersion`.
 */
export const claimAnnotationRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    /** Adds or removes a label once `permission` on the claim is authorized; answers the claim's labels and metadata. */
    const retag = async (
      request: FastifyRequest,
      permission: Permission,
      claimId: string,
      commandOf: (claimId: string) => ClaimCommand,
      expectedVersion: number | undefined,
    ) => {
      const { state: claim } = await authorizedClaim(ctx, request, permission, claimId);
      return tagsOf(
        await annotate(
          ctx,
          claim,
          metaOf(request.requirePrincipal(), request.id),
          commandOf(claim.id),
          expectedVersion,
        ),
      );
    };

    app.get(
      '/api/admin/claims/:claimId/notes',
      {
        config: { auth: 'user', permission: 'claim-note:read' },
        schema: {
          tags: ['back-office'],
          summary: "The claim's internal notes, oldest first",
          params: ClaimParams,
          response: { 200: ClaimNoteList, ...errors },
        },
      },
      async (request) => {
        const { events } = await authorizedClaim(ctx, request, 'claim-note:read', request.params.claimId);
        return { data: notesOf(events) };
      },
    );

    app.post(
      '/api/admin/claims/:claimId/notes',
      {
        config: { auth: 'user', permission: 'claim-note:create' },
        schema: {
          tags: ['back-office'],
          summary: 'Add an internal note (never shown to the shopper)',
          params: ClaimParams,
          body: AddNoteRequest,
          response: { 201: ClaimNote, ...errors },
        },
      },
      async (request, reply) => {
        const { state: claim } = await authorizedClaim(ctx, request, 'claim-note:create', request.params.claimId);
        const principal = request.requirePrincipal();
        const handled = await annotate(
          ctx,
          claim,
          metaOf(principal, request.id),
          {
            type: 'AddClaimNote',
            claimId: claim.id,
            noteId: randomUUID(),
            actor: actorOf(principal),
            body: request.body.body,
            now: ctx.now(),
          },
          request.body.expectedVersion,
        );
        return reply
          .code(201)
          .send(created(notesOf(handled.decided.map((e) => ({ ...e, streamVersion: handled.version }))), 'note'));
      },
    );

    app.post(
      '/api/admin/claims/:claimId/labels',
      {
        config: { auth: 'user', permission: 'label:add' },
        schema: {
          tags: ['back-office'],
          summary: 'Add a label (adding one the claim has changes nothing)',
          params: ClaimParams,
          body: AddLabelRequest,
          response: { 200: ClaimTags, ...errors },
        },
      },
      async (request) =>
        retag(
          request,
          'label:add',
          request.params.claimId,
          (claimId) => ({ type: 'AddClaimLabel', claimId, label: request.body.label }),
          request.body.expectedVersion,
        ),
    );

    app.delete(
      '/api/admin/claims/:claimId/labels/:label',
      {
        config: { auth: 'user', permission: 'label:remove' },
        schema: {
          tags: ['back-office'],
          summary: 'Remove a label (removing one the claim lacks changes nothing)',
          params: ClaimParams.extend({ label: Label }),
          querystring: z.object({ expectedVersion: z.coerce.number().int().nonnegative().optional() }),
          response: { 200: ClaimTags, ...errors },
        },
      },
      async (request) =>
        retag(
          request,
          'label:remove',
          request.params.claimId,
          (claimId) => ({ type: 'RemoveClaimLabel', claimId, label: request.params.label }),
          request.query.expectedVersion,
        ),
    );

    app.put(
      '/api/admin/claims/:claimId/metadata/:key',
      {
        config: { auth: 'user', permission: { anyOf: ['metadata:create', 'metadata:update'] } },
        schema: {
          tags: ['back-office'],
          summary: 'Set one metadata value: metadata:create for a new key, metadata:update for an existing one',
          params: ClaimParams.extend({ key: MetadataKeyParam }),
          body: SetMetadataRequest,
          response: { 200: ClaimTags, ...errors },
        },
      },
      async (request) => {
        const { claimId, key } = request.params;
        const loaded = await loadClaim(ctx, claimId);
        if (!loaded) throw claimNotFound();
        const { state: claim, version } = loaded;
        const exists = Object.hasOwn(claim.metadata, key);
        const principal = request.authorize(
          exists ? 'metadata:update' : 'metadata:create',
          claim.storeId,
          claimNotFound,
        );
        // A create-only caller decided on "the key is new": pin that version, so a key created meanwhile is a 409, not an update.
        const mayUpdate = exists || permissionsAt(principal, claim.storeId)?.has('metadata:update');
        return tagsOf(
          await annotate(
            ctx,
            claim,
            metaOf(principal, request.id),
            { type: 'SetClaimMetadata', claimId: claim.id, key, value: request.body.value },
            request.body.expectedVersion ?? (mayUpdate ? undefined : version),
          ),
        );
      },
    );
  };
