import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import {
  CreditNoteView,
  InvoiceDraft,
  InvoiceDraftQuery,
  InvoiceList,
  InvoiceListQuery,
  InvoiceView,
  IssueCreditNoteRequest,
  IssueInvoiceRequest,
  storeBillingStreamOf,
  toDecimal,
  toMinor,
  type Permission,
  type Store,
} from '@claims/contracts';
import { invoiceFigures, monthHasEnded, monthPeriod, storeBillingDecider } from '@claims/domain';
import { invoiceRows, type InvoiceRow } from '@claims/projections';
import type { AppContext } from '../context.js';
import { actorOf, storesWith, type Principal } from '../http/principal.js';
import { findStore, storeRefs } from '../catalog/storeRepository.js';
import { loadAggregate } from '../eventsourcing/commandHandler.js';
import { authorizedStore } from '../http/authorizedStore.js';
import { AppError } from '../platform/errors.js';
import { invoiceCsv } from './invoiceCsv.js';
import { invoiceInputsOf } from './invoiceInputs.js';
import { invoiceView, rowOfIssued } from './invoiceView.js';
import { handleBillingCommand } from './storeBillingCommands.js';
import { errorResponses } from '../http/errorResponses.js';

const InvoiceParams = z.object({ invoiceId: z.uuid() });
const errors = errorResponses(400, 401, 403, 404, 409, 422);
const invoiceNotFound = () => new AppError('not_found', 'No invoice matches that reference.');

/** The stores a list covers: the one asked for (404 unknown or another tenant's, 403 without the right), else every store the caller may read invoices of. */
async function readableStores(
  ctx: AppContext,
  request: FastifyRequest,
  storeId: string | undefined,
): Promise<string[] | null> {
  if (storeId) return [(await authorizedStore(ctx, request, 'invoice:read', storeId)).store.id];
  const stores = storesWith(request.requirePrincipal(), 'invoice:read');
  return stores === 'all' ? null : stores;
}

/** An issued invoice the caller may act on with `permission`: an unknown one and another tenant's are the same 404. */
async function authorizedInvoice(
  ctx: AppContext,
  request: FastifyRequest,
  permission: Permission,
  invoiceId: string,
): Promise<{ row: InvoiceRow; store: Store; principal: Principal }> {
  const [row] = await invoiceRows(ctx.database.db, { storeIds: null, invoiceId });
  const store = row && (await findStore(ctx.database.db, row.storeId));
  if (!row || !store) {
    request.requirePrincipal();
    throw invoiceNotFound();
  }
  return { row, store, principal: request.authorize(permission, store.id, invoiceNotFound) };
}

/**
 * Invoices and credit notes (docs/decisions/invoices.md): Order Protection's finance team drafts a store's
 * month from the ledger and issues it once the month is over (`invoice:create`), corrects it only with credit
 * notes (`invoice:update`); the store's owners and admins read theirs (`invoice:read`), as a page or CSV.
 */
export const invoiceRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/finance/invoices',
      {
        config: { auth: 'user', permission: 'invoice:read' },
        schema: {
          tags: ['finance'],
          summary: 'Issued invoices, newest month first, by store and month',
          querystring: InvoiceListQuery,
          response: { 200: InvoiceList, ...errors },
        },
      },
      async (request) => {
        const storeIds = await readableStores(ctx, request, request.query.storeId);
        const [rows, names] = await Promise.all([
          invoiceRows(ctx.database.db, { storeIds, month: request.query.month }),
          storeRefs(ctx.database.db),
        ]);
        return { data: rows.map((row) => invoiceView(row, names.get(row.storeId)?.name ?? 'Unknown store')) };
      },
    );

    app.get(
      '/api/finance/invoices/draft',
      {
        config: { auth: 'user', permission: 'invoice:create' },
        schema: {
          tags: ['finance'],
          summary:
            "What a store's invoice for a month says if issued now, from the ledger (and whether it is issued already)",
          querystring: InvoiceDraftQuery,
          response: { 200: InvoiceDraft, ...errors },
        },
      },
      async (request) => {
        const { storeId, month } = request.query;
        const { store } = await authorizedStore(ctx, request, 'invoice:create', storeId);
        const [inputs, billing] = await Promise.all([
          invoiceInputsOf(ctx, store, month),
          loadAggregate(ctx, storeBillingDecider, storeBillingStreamOf(store.id)),
        ]);
        const figures = invoiceFigures(inputs);
        if (!figures.ok) throw AppError.from(figures.error);
        const { currency, revSharePercent, lines, total, direction } = figures.value;
        const { start, end } = monthPeriod(month);
        return {
          storeId: store.id,
          storeName: store.name,
          month,
          periodStart: start,
          periodEnd: end,
          currency,
          revSharePercent,
          lines: lines.map((line) => ({ ...line, amount: toDecimal(line.amount, currency) })),
          total: toDecimal(total, currency),
          direction,
          monthEnded: monthHasEnded(month, ctx.now()),
          issuedInvoiceId: billing.state.byMonth.get(month) ?? null,
        };
      },
    );

    app.post(
      '/api/finance/invoices',
      {
        config: { auth: 'user', permission: 'invoice:create' },
        schema: {
          tags: ['finance'],
          summary:
            "Issue a store's invoice for a month that has ended (once: a second is 409; correct it with a credit note)",
          body: IssueInvoiceRequest,
          response: { 201: InvoiceView, ...errors },
        },
      },
      async (request, reply) => {
        const { store, principal } = await authorizedStore(ctx, request, 'invoice:create', request.body.storeId);
        const { month } = request.body;
        const handled = await handleBillingCommand(ctx, store.id, { principal, requestId: request.id }, async () => ({
          type: 'IssueInvoice' as const,
          storeId: store.id,
          invoiceId: randomUUID(),
          storeSlug: store.slug,
          month,
          inputs: await invoiceInputsOf(ctx, store, month),
          actorId: actorOf(principal).id,
          now: ctx.now(),
        }));
        const issued = handled.decided.find((event) => event.type === 'InvoiceIssued');
        if (!issued) throw new AppError('already_invoiced', `${month} is invoiced already.`);
        return reply.code(201).send(invoiceView(rowOfIssued(issued), store.name));
      },
    );

    app.get(
      '/api/finance/invoices/:invoiceId',
      {
        config: { auth: 'user', permission: 'invoice:read' },
        schema: {
          tags: ['finance'],
          summary: 'One issued invoice with its credit notes',
          params: InvoiceParams,
          response: { 200: InvoiceView, ...errors },
        },
      },
      async (request) => {
        const { row, store } = await authorizedInvoice(ctx, request, 'invoice:read', request.params.invoiceId);
        return invoiceView(row, store.name);
      },
    );

    app.get(
      '/api/finance/invoices/:invoiceId/export.csv',
      {
        config: { auth: 'user', permission: 'invoice:read' },
        schema: {
          tags: ['finance'],
          summary: 'One invoice, its credit notes and its balance as CSV',
          params: InvoiceParams,
          response: { 200: z.string(), ...errors },
        },
      },
      async (request, reply) => {
        const { row, store } = await authorizedInvoice(ctx, request, 'invoice:read', request.params.invoiceId);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="invoice-${row.number}.csv"`)
          .send(invoiceCsv(invoiceView(row, store.name)));
      },
    );

    app.post(
      '/api/finance/invoices/:invoiceId/credit-notes',
      {
        config: { auth: 'user', permission: 'invoice:update' },
        schema: {
          tags: ['finance'],
          summary: 'Correct an issued invoice: take back part of its lines (never more than they are)',
          params: InvoiceParams,
          body: IssueCreditNoteRequest,
          response: { 201: CreditNoteView, ...errors },
        },
      },
      async (request, reply) => {
        const { row, store, principal } = await authorizedInvoice(
          ctx,
          request,
          'invoice:update',
          request.params.invoiceId,
        );
        const handled = await handleBillingCommand(
          ctx,
          store.id,
          { principal, requestId: request.id },
          {
            type: 'IssueCreditNote',
            storeId: store.id,
            invoiceId: row.id,
            creditNoteId: randomUUID(),
            reason: request.body.reason,
            lines: request.body.lines.map((line) => ({ kind: line.kind, amount: toMinor(line.amount, row.currency) })),
            actorId: actorOf(principal).id,
            now: ctx.now(),
          },
        );
        const note = handled.decided.find((event) => event.type === 'CreditNoteIssued');
        if (!note) throw new AppError('internal_error', 'The credit note was not recorded.');
        const { creditNoteId, number, invoiceId, lines, total, reason, issuedAt, issuedBy } = note.data;
        return reply.code(201).send({
          id: creditNoteId,
          number,
          invoiceId,
          reason,
          issuedAt,
          issuedBy,
          lines: lines.map((line) => ({ ...line, amount: toDecimal(line.amount, row.currency) })),
          total: toDecimal(total, row.currency),
        });
      },
    );
  };
