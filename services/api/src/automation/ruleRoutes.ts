import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  BacktestRequest,
  BacktestView,
  RuleActivityList,
  RuleCreatedResponse,
  RuleInput,
  RuleList,
  RuleOrderRequest,
  RuleSwitchRequest,
  RuleVersionList,
  storeRulesStreamOf,
  type Store,
  StoreParams,
} from '@claims/contracts';
import { rulesInOrder, storeRulesDecider, type StoreRulesCommand, type StoreRulesState } from '@claims/domain';
import { readStream } from '@claims/event-store';
import type { AppContext } from '../context.js';
import { handleCommand, loadAggregate } from '../eventsourcing/commandHandler.js';
import { authorizedStore } from '../http/authorizedStore.js';
import { metaOf } from '../http/requestMeta.js';
import { AppError } from '../platform/errors.js';
import { definitionOf, ruleVersionsOf, ruleViewOf } from './ruleEdge.js';
import { backtestView, periodOf, startBacktest } from './backtests.js';
import { ruleActivity } from './ruleActivity.js';
import { errorResponses } from '../http/errorResponses.js';

const RuleParams = StoreParams.extend({ ruleId: z.uuid() });
const BacktestParams = StoreParams.extend({ backtestId: z.uuid() });
const errors = errorResponses(400, 401, 403, 404, 409, 422);
const tags = ['automation'];
const security: Array<Record<string, string[]>> = [{ bearer: [] }, { cookie: [] }];

const ruleNotFound = () => new AppError('rule_not_found', 'No rule of this store has that id.');

function listOf(state: StoreRulesState, version: number, store: Store): RuleList {
  return {
    rules: rulesInOrder(state).map((rule, position) => ruleViewOf(rule, position, store.currency)),
    paused: state.paused,
    currency: store.currency,
    version,
  };
}

/**
 * Contract §Automation: a store's rules (`automation:read` / `automation:update`, by session or API token), each change
 * a version on the store's `store-rules` stream; backtests of a draft rule over the store's history.
 */
export const ruleRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    /**
     * One change to the store's rules as the request's principal, once it holds automation:update on the store: the
     * command is built for the store the request names.
     */
    const change = async (
      request: FastifyRequest<{ Params: { storeId: string } }>,
      commandOf: (store: Store) => StoreRulesCommand,
    ) => {
      const { store, principal } = await authorizedStore(ctx, request, 'automation:update', request.params.storeId);
      const handled = await handleCommand(ctx, {
        decider: storeRulesDecider,
        streamId: storeRulesStreamOf(store.id),
        storeId: store.id,
        meta: metaOf(principal, request.id),
        command: commandOf(store),
      });
      return { store, handled };
    };

    app.get(
      '/api/stores/:storeId/rules',
      {
        config: { auth: 'user-or-token', permission: 'automation:read' },
        schema: {
          tags,
          summary: 'The store’s rules in the order they are tried, and whether the kill switch holds them all',
          security,
          params: StoreParams,
          response: { 200: RuleList, ...errors },
        },
      },
      async (request) => {
        const { store } = await authorizedStore(ctx, request, 'automation:read', request.params.storeId);
        const loaded = await loadAggregate(ctx, storeRulesDecider, storeRulesStreamOf(store.id));
        return listOf(loaded.state, loaded.version, store);
      },
    );

    app.post(
      '/api/stores/:storeId/rules',
      {
        config: { auth: 'user-or-token', permission: 'automation:update' },
        schema: {
          tags,
          summary: 'Add a rule, tried after the others (money as decimals of the store’s currency)',
          security,
          params: StoreParams,
          body: RuleInput,
          response: { 201: RuleCreatedResponse, ...errors },
        },
      },
      async (request, reply) => {
        const ruleId = randomUUID();
        await change(request, (store) => ({
          type: 'CreateRule',
          storeId: store.id,
          ruleId,
          rule: definitionOf(request.body, store.currency),
          now: ctx.now(),
        }));
        return reply.code(201).send({ id: ruleId, version: 1 });
      },
    );

    app.put(
      '/api/stores/:storeId/rules/order',
      {
        config: { auth: 'user-or-token', permission: 'automation:update' },
        schema: {
          tags,
          summary: 'Put the rules in a new order (every rule of the store, once)',
          security,
          params: StoreParams,
          body: RuleOrderRequest,
          response: { 200: RuleList, ...errors },
        },
      },
      async (request) => {
        const { store, handled } = await change(request, ({ id }) => ({
          type: 'ReorderRules',
          storeId: id,
          ruleIds: request.body.ruleIds,
          now: ctx.now(),
        }));
        return listOf(handled.state, handled.version, store);
      },
    );

    app.put(
      '/api/stores/:storeId/rules/switch',
      {
        config: { auth: 'user-or-token', permission: 'automation:update' },
        schema: {
          tags,
          summary: 'The kill switch: paused, no rule of the store acts or records anything until resumed',
          security,
          params: StoreParams,
          body: RuleSwitchRequest,
          response: { 200: RuleList, ...errors },
        },
      },
      async (request) => {
        const { store, handled } = await change(request, ({ id }) => ({
          type: 'SwitchRules',
          storeId: id,
          paused: request.body.paused,
          now: ctx.now(),
        }));
        return listOf(handled.state, handled.version, store);
      },
    );

    app.put(
      '/api/stores/:storeId/rules/:ruleId',
      {
        config: { auth: 'user-or-token', permission: 'automation:update' },
        schema: {
          tags,
          summary: 'A new version of a rule (the whole rule)',
          security,
          params: RuleParams,
          body: RuleInput,
          response: { 200: RuleCreatedResponse, ...errors },
        },
      },
      async (request) => {
        const { ruleId } = request.params;
        const { handled } = await change(request, (store) => ({
          type: 'ReviseRule',
          storeId: store.id,
          ruleId,
          rule: definitionOf(request.body, store.currency),
          now: ctx.now(),
        }));
        const revised = handled.state.rules.get(ruleId);
        if (!revised) throw ruleNotFound();
        return { id: ruleId, version: revised.version };
      },
    );

    app.get(
      '/api/stores/:storeId/rules/:ruleId/versions',
      {
        config: { auth: 'user-or-token', permission: 'automation:read' },
        schema: {
          tags,
          summary: 'Every version of a rule, newest first: what it said, when and who saved it',
          security,
          params: RuleParams,
          response: { 200: RuleVersionList, ...errors },
        },
      },
      async (request) => {
        const { store } = await authorizedStore(ctx, request, 'automation:read', request.params.storeId);
        const { ruleId } = request.params;
        const { events } = await readStream(ctx.database.db, storeRulesStreamOf(store.id));
        const versions = ruleVersionsOf(events, ruleId, store.currency);
        if (versions.length === 0) throw ruleNotFound();
        return { ruleId, versions };
      },
    );

    app.get(
      '/api/stores/:storeId/rules/:ruleId/activity',
      {
        config: { auth: 'user-or-token', permission: 'automation:read' },
        schema: {
          tags,
          summary: 'What a rule did (live) or would have done (shadow), newest first',
          security,
          params: RuleParams,
          response: { 200: RuleActivityList, ...errors },
        },
      },
      async (request) => {
        const { store } = await authorizedStore(ctx, request, 'automation:read', request.params.storeId);
        return {
          entries: await ruleActivity(ctx, { storeId: store.id, ruleId: request.params.ruleId, limit: 500 }),
        };
      },
    );

    app.post(
      '/api/stores/:storeId/rules/backtests',
      {
        config: { auth: 'user-or-token', permission: 'automation:read' },
        schema: {
          tags,
          summary: 'Try a draft rule over the store’s claims filed in a period, from the events, changing nothing',
          security,
          params: StoreParams,
          body: BacktestRequest,
          response: { 202: z.object({ id: z.uuid() }), ...errors },
        },
      },
      async (request, reply) => {
        const { store, principal } = await authorizedStore(ctx, request, 'automation:read', request.params.storeId);
        const { rule, from, to } = request.body;
        const draft = { id: randomUUID(), version: 1, rule: definitionOf(rule, store.currency), updatedAt: ctx.now() };
        const job = await startBacktest(ctx, store, draft, periodOf(from, to), metaOf(principal, request.id).actor.id);
        return reply.code(202).send({ id: job.id });
      },
    );

    app.get(
      '/api/stores/:storeId/rules/backtests/:backtestId',
      {
        config: { auth: 'user-or-token', permission: 'automation:read' },
        schema: {
          tags,
          summary:
            'A backtest: how far it got, what the rule matched and decided, where it disagrees with the decisions made',
          security,
          params: BacktestParams,
          response: { 200: BacktestView, ...errors },
        },
      },
      async (request) => {
        const { store } = await authorizedStore(ctx, request, 'automation:read', request.params.storeId);
        const view = await backtestView(ctx, store.id, request.params.backtestId);
        if (!view) throw new AppError('not_found', 'No backtest of this store has that id.');
        return view;
      },
    );
  };
