import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import compress from '@fastify/compress';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { AppContext } from './context.js';
import { installErrorHandler } from './platform/errorHandler.js';
import { healthRoute, type HealthCheck } from './platform/healthRoute.js';
import { installControlCharacterCheck } from './platform/controlCharacters.js';
import { installMetrics } from './platform/metrics.js';
import { operationsReader, type OperationsSources } from './platform/operations.js';
import { operationsRoutes } from './platform/operationsRoutes.js';
import { orderLookupRoute } from './customer/orderLookupRoute.js';
import { claimRoutes } from './customer/claimRoutes.js';
import { sessionRoutes } from './customer/draftSessionRoutes.js';
import { storeRoutes } from './customer/storeRoutes.js';
import { brandingRoutes } from './branding/brandingRoutes.js';
import { abTestRoutes } from './ab-tests/abTestRoutes.js';
import { ruleRoutes } from './automation/ruleRoutes.js';
import { mediaRoutes } from './media/mediaRoutes.js';
import { portalRoutes } from './web/portalRoutes.js';
import { adminRoutes } from './web/adminRoutes.js';
import { rateLimitPlugin } from './platform/rateLimitPlugin.js';
import { sentryPlugin } from './platform/sentryPlugin.js';
import { authPlugin } from './auth/authPlugin.js';
import { authRoutes } from './auth/authRoutes.js';
import { expirySweepPlugin } from './auth/expirySweep.js';
import { adminClaimRoutes } from './desk/deskClaimRoutes.js';
import { claimFactsRoutes } from './desk/claimFactsRoute.js';
import { claimAnnotationRoutes } from './desk/claimAnnotationRoutes.js';
import { bulkStatusRoutes } from './desk/bulkStatusRoutes.js';
import { macroRoutes } from './desk/macroRoutes.js';
import { orderRoutes } from './desk/orderRoutes.js';
import { reviewRoutes } from './desk/reviewRoutes.js';
import { savedViewRoutes } from './desk/savedViewRoutes.js';
import { sopRoutes } from './desk/sopRoutes.js';
import { teamRoutes } from './team/teamRoutes.js';
import { supportUserRoutes } from './team/supportUserRoutes.js';
import { apiTokenRoutes } from './public-v1/apiTokenRoutes.js';
import { v1Routes } from './public-v1/v1Routes.js';
import { webhookRoutes } from './webhooks/webhookRoutes.js';
import { webhookAdminRoutes } from './webhooks/webhookAdminRoutes.js';
import { parkedDeliveryRoutes } from './webhooks/parkedDeliveryRoutes.js';
import { financeRoutes } from './finance/financeRoutes.js';
import { payoutBatchRoutes } from './finance/payoutBatchRoutes.js';
import { reverseResolutionRoute } from './finance/reverseResolutionRoute.js';
import { storeCreditRoutes } from './store-credit/storeCreditRoutes.js';
import { analyticsRoutes } from './analytics/analyticsRoutes.js';
import { invoiceRoutes } from './invoices/invoiceRoutes.js';
import { paymentMethodRoutes } from './invoices/paymentMethodRoutes.js';
import { storeSettingsRoutes } from './store-settings/storeSettingsRoutes.js';
import { notificationPreferenceRoutes } from './notifications/notificationPreferenceRoutes.js';
import { onboardingRoutes } from './onboarding/onboardingRoutes.js';
import { profileRoutes } from './auth/profileRoutes.js';
import { returnRoutes } from './returns/returnRoutes.js';
import { claimLinkRecoveryRoute } from './notifications/claimLinkRecoveryRoute.js';
import { claimPresenceRoutes } from './desk/claimPresenceRoutes.js';
import { claimReopenRoutes } from './desk/claimReopenRoutes.js';

export interface AppOptions {
  /** Readiness of the components beside the database (Kafka, projectors), by name. */
  healthChecks: Readonly<Record<string, HealthCheck>>;
  /** The workers and figures behind GET /api/metrics and the operations page (the checks are healthChecks). */
  operations: Omit<OperationsSources, 'healthChecks'>;
}

/** TRUST_PROXY=n: the n addresses nearest to us are proxies (what Fastify does with a number, which its types omit). */
const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

/** The HTTP surface: one Fastify instance, one plugin per feature. */
export async function buildApp(ctx: AppContext, options: AppOptions): Promise<FastifyInstance> {
  const logger: FastifyBaseLogger = ctx.log;
  const app = Fastify({
    loggerInstance: logger,
    genReqId: (req) => {
      const given = req.headers['x-correlation-id'];
      return typeof given === 'string' && /^[\w.-]{1,100}$/.test(given) ? given : randomUUID();
    },
    requestIdHeader: false,
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    // Behind a proxy (TRUST_PROXY) request.ip, .protocol and .host are the client's and the public ones;
    // the rate limits, the Origin check and the cookie flags all read them.
    trustProxy: typeof ctx.config.trustProxy === 'number' ? trustHops(ctx.config.trustProxy) : ctx.config.trustProxy,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', async (request, reply) => {
    void reply.header('x-correlation-id', request.id);
    // Production is served over HTTPS only (through its proxy): browsers must never try plain HTTP.
    if (ctx.config.production) void reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
  });
  installErrorHandler(app);

  // The portal's script is most of a first visit: gzip/brotli cut it about 3.5x on the wire.
  await app.register(compress, { threshold: 1024 });
  await app.register(cors, { origin: false });
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Order protection claims API',
        version: '1.0.0',
        description: 'Customer claims portal, back-office and public API v1.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          cookie: { type: 'apiKey', in: 'cookie', name: 'session' },
        },
      },
    },
    // Each operation says what it needs (`x-permission`, or `x-permission-any-of` when what is asked picks one): integrators read it, and the route-by-role test walks it.
    transform: (input) => {
      const transformed = jsonSchemaTransform(input);
      const access = input.route.config?.permission;
      if (!access) return transformed;
      const declared =
        typeof access === 'string' ? { 'x-permission': access } : { 'x-permission-any-of': access.anyOf };
      return { ...transformed, schema: { ...transformed.schema, ...declared } };
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  await app.register(authPlugin(ctx));
  // After the permission check: another tenant's store answers 404 before its body's shape answers 400.
  installControlCharacterCheck(app);
  await app.register(expirySweepPlugin(ctx));
  await app.register(sentryPlugin(ctx));
  await app.register(rateLimitPlugin(ctx));
  // After swagger (it documents the routes added from here on); the metrics' onResponse hook is the root's.
  const operations = operationsReader(ctx, { ...options.operations, healthChecks: options.healthChecks });
  installMetrics(app, ctx, operations);
  await app.register(healthRoute(ctx, options.healthChecks));
  await app.register(
    operationsRoutes(
      ctx,
      operations,
      options.operations.reactions.map((r) => r.reaction),
    ),
  );
  await app.register(orderLookupRoute(ctx));
  await app.register(claimLinkRecoveryRoute(ctx));
  await app.register(claimRoutes(ctx));
  await app.register(sessionRoutes(ctx));
  await app.register(authRoutes(ctx));
  await app.register(adminClaimRoutes(ctx));
  await app.register(claimFactsRoutes(ctx));
  await app.register(claimAnnotationRoutes(ctx));
  await app.register(bulkStatusRoutes(ctx));
  await app.register(macroRoutes(ctx));
  await app.register(savedViewRoutes(ctx));
  await app.register(sopRoutes(ctx));
  await app.register(storeSettingsRoutes(ctx));
  await app.register(teamRoutes(ctx));
  await app.register(supportUserRoutes(ctx));
  await app.register(apiTokenRoutes(ctx));
  await app.register(v1Routes(ctx));
  await app.register(webhookRoutes(ctx));
  await app.register(webhookAdminRoutes(ctx));
  await app.register(parkedDeliveryRoutes(ctx));
  await app.register(financeRoutes(ctx));
  await app.register(payoutBatchRoutes(ctx));
  await app.register(reverseResolutionRoute(ctx));
  await app.register(storeCreditRoutes(ctx));
  await app.register(analyticsRoutes(ctx));
  await app.register(invoiceRoutes(ctx));
  await app.register(paymentMethodRoutes(ctx));
  await app.register(notificationPreferenceRoutes(ctx));
  await app.register(onboardingRoutes(ctx));
  await app.register(profileRoutes(ctx));
  await app.register(returnRoutes(ctx));
  await app.register(storeRoutes(ctx));
  await app.register(brandingRoutes(ctx));
  await app.register(abTestRoutes(ctx));
  await app.register(ruleRoutes(ctx));
  await app.register(mediaRoutes(ctx));
  await app.register(adminRoutes(ctx));
  await app.register(orderRoutes(ctx));
  await app.register(reviewRoutes(ctx));
  await app.register(claimPresenceRoutes(ctx));
  await app.register(claimReopenRoutes(ctx));
  // Last: the portal's catch-all serves the single-page app for every other GET.
  await app.register(portalRoutes(ctx));
  return app;
}
