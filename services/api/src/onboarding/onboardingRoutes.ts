import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import {
  AccountList,
  AccountStores,
  AccountView,
  CreateAccountRequest,
  CreateStoreRequest,
  ONBOARDING_STEP_PERMISSION,
  OnboardingList,
  OnboardingStepRequest,
  StoreOnboardingView,
  accountStreamOf,
  storeStreamOf,
  type Permission,
  type StoreLifecycleCommand,
  StoreParams,
} from '@claims/contracts';
import { accountDecider, storeLifecycleDecider } from '@claims/domain';
import type { AppContext, RequestMeta } from '../context.js';
import { AppError } from '../platform/errors.js';
import { authorizeGlobal, authorizedStore, storeNotFound } from '../http/authorizedStore.js';
import { metaOf } from '../http/requestMeta.js';
import { handleCommand } from '../eventsourcing/commandHandler.js';
import { storesWith, type Principal } from '../http/principal.js';
import {
  accountExists,
  insertAccount,
  insertOnboardingStore,
  listAccountStores,
  listAccounts,
  markStoreActive,
} from '../catalog/storeLifecycleRows.js';
import { onboardingViews } from './storeLifecycleView.js';
import { errorResponses } from '../http/errorResponses.js';

const AccountParams = z.object({ accountId: z.uuid() });
/** Creating a store is the admin's (`admin-stores`) or implementation's onboarding step. */
const STORE_CREATORS: readonly Permission[] = ['admin-stores:create', 'implementation:create'];
const errors = errorResponses(400, 401, 403, 404, 409, 422);

/** One of several permissions held on every store (only internal roles are). */
function authorizeGlobalAny(request: FastifyRequest, permissions: readonly Permission[]): Principal {
  const principal = request.requirePrincipal();
  if (!permissions.some((p) => storesWith(principal, p) === 'all')) {
    throw new AppError('forbidden', `You need the ${permissions.join(' or ')} permission for this.`);
  }
  return principal;
}

async function viewOf(ctx: AppContext, storeId: string): Promise<StoreOnboardingView> {
  const [view] = await onboardingViews(ctx, storeId);
  if (!view) throw storeNotFound();
  return view;
}

/** A command on a store created here, answered with where the store stands after it. */
async function onStore(
  ctx: AppContext,
  storeId: string,
  meta: RequestMeta,
  command: StoreLifecycleCommand,
  expectedVersion?: number,
) {
  await handleCommand(ctx, {
    decider: storeLifecycleDecider,
    streamId: storeStreamOf(storeId),
    storeId,
    meta,
    command,
    expectedVersion,
    alongside: command.type === 'ActivateStore' ? (trx) => markStoreActive(trx, storeId) : undefined,
  });
  return viewOf(ctx, storeId);
}

/**
 * Accounts and stores created by Order Protection's staff (`account`, `admin-stores`, `implementation:create`),
 * each store's onboarding steps (`implementation:*`) and its activation (`store:activate`). The catalog's rows
 * are written in the transaction that records each event, so the portal and the desk read a new store at once.
 */
export const onboardingRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/admin/accounts',
      {
        config: { auth: 'user', permission: 'account:read' },
        schema: {
          tags: ['back-office'],
          summary: 'The accounts the caller may read (every account for internal staff), with their number of stores',
          response: { 200: AccountList, ...errors },
        },
      },
      async (request) => {
        // Internal staff read every account; a merchant reads the accounts of their own stores.
        const stores = storesWith(request.requirePrincipal(), 'account:read');
        return { data: await listAccounts(ctx.database.db, stores === 'all' ? null : stores) };
      },
    );

    app.get(
      '/api/admin/accounts/:accountId/stores',
      {
        config: { auth: 'user', permission: 'account-stores:read' },
        schema: {
          tags: ['back-office'],
          summary: 'The stores of an account the caller sees (account-stores:read; every store for internal staff)',
          params: AccountParams,
          response: { 200: AccountStores, ...errors },
        },
      },
      async (request) => {
        const { accountId } = request.params;
        const held = storesWith(request.requirePrincipal(), 'account-stores:read');
        const within = held === 'all' ? null : held;
        // An account none of whose stores the caller reads is as unknown as one that does not exist.
        const [account] = await listAccounts(ctx.database.db, within, accountId);
        if (!account) throw new AppError('not_found', 'No account matches that reference.');
        return { account, data: await listAccountStores(ctx.database.db, accountId, within) };
      },
    );

    app.post(
      '/api/admin/accounts',
      {
        config: { auth: 'user', permission: 'account:create' },
        schema: {
          tags: ['back-office'],
          summary: 'Create an account (account:create on every store: Order Protection staff)',
          body: CreateAccountRequest,
          response: { 201: AccountView, ...errors },
        },
      },
      async (request, reply) => {
        const principal = authorizeGlobal(request, 'account:create');
        const accountId = randomUUID();
        const { name, slug } = request.body;
        await handleCommand(ctx, {
          decider: accountDecider,
          streamId: accountStreamOf(accountId),
          storeId: null,
          meta: metaOf(principal, request.id),
          command: { type: 'CreateAccount', accountId, name, slug, now: ctx.now() },
          alongside: (trx) => insertAccount(trx, { id: accountId, slug, name }),
        });
        request.log.info({ accountId }, 'account created');
        return reply.code(201).send({ id: accountId, slug, name, storeCount: 0 });
      },
    );

    app.post(
      '/api/admin/stores',
      {
        config: { auth: 'user', permission: { anyOf: STORE_CREATORS } },
        schema: {
          tags: ['back-office'],
          summary:
            "Create a store in an account: the onboarding's first step (admin-stores:create or implementation:create); inactive until activated",
          body: CreateStoreRequest,
          response: { 201: StoreOnboardingView, ...errors },
        },
      },
      async (request, reply) => {
        const principal = authorizeGlobalAny(request, STORE_CREATORS);
        const { accountId, name, slug, currency, domain } = request.body;
        if (!(await accountExists(ctx.database.db, accountId)))
          throw new AppError('not_found', 'No account matches that reference.');
        const storeId = randomUUID();
        const now = ctx.now();
        await handleCommand(ctx, {
          decider: storeLifecycleDecider,
          streamId: storeStreamOf(storeId),
          storeId,
          meta: metaOf(principal, request.id),
          command: { type: 'CreateStore', storeId, accountId, name, slug, currency, domain, now },
          alongside: (trx) =>
            insertOnboardingStore(trx, { id: storeId, accountId, slug, name, domain, currency, createdAt: now }),
        });
        request.log.info({ storeId, accountId }, 'store created');
        return reply.code(201).send(await viewOf(ctx, storeId));
      },
    );

    app.get(
      '/api/admin/onboarding',
      {
        config: { auth: 'user', permission: 'admin-stores:read' },
        schema: {
          tags: ['back-office'],
          summary:
            'Every store created in the back-office and where its onboarding stands (admin-stores:read on every store)',
          response: { 200: OnboardingList, ...errors },
        },
      },
      async (request) => {
        authorizeGlobal(request, 'admin-stores:read');
        return { data: await onboardingViews(ctx) };
      },
    );

    app.post(
      '/api/admin/stores/:storeId/onboarding/steps',
      {
        config: {
          auth: 'user',
          permission: {
            anyOf: OnboardingStepRequest.shape.step.options.map((step) => ONBOARDING_STEP_PERMISSION[step]),
          },
        },
        schema: {
          tags: ['back-office'],
          summary:
            "Take the store's next onboarding step (brand-create, review, approve, reject, deploy: implementation:<step>)",
          params: StoreParams,
          body: OnboardingStepRequest.and(z.object({ expectedVersion: z.number().int().positive().optional() })),
          response: { 200: StoreOnboardingView, ...errors },
        },
      },
      async (request) => {
        const { step, note, expectedVersion } = request.body;
        const { principal } = await authorizedStore(
          ctx,
          request,
          ONBOARDING_STEP_PERMISSION[step],
          request.params.storeId,
        );
        const view = await onStore(
          ctx,
          request.params.storeId,
          metaOf(principal, request.id),
          { type: 'AdvanceOnboarding', step, note, now: ctx.now() },
          expectedVersion,
        );
        request.log.info({ storeId: view.storeId, step, stage: view.stage }, 'store onboarding advanced');
        return view;
      },
    );

    app.post(
      '/api/admin/stores/:storeId/activate',
      {
        config: { auth: 'user', permission: 'store:activate' },
        schema: {
          tags: ['back-office'],
          summary: 'Activate a deployed store: shoppers reach its orders from now on (store:activate)',
          params: StoreParams,
          response: { 200: StoreOnboardingView, ...errors },
        },
      },
      async (request) => {
        const { principal } = await authorizedStore(ctx, request, 'store:activate', request.params.storeId);
        return onStore(ctx, request.params.storeId, metaOf(principal, request.id), {
          type: 'ActivateStore',
          now: ctx.now(),
        });
      },
    );
  };
