import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { DomainFailure } from '@claims/contracts';
import { EventTooLargeError } from '@claims/event-store';
import { AppError } from './errors.js';
import { DATABASE_RETRY_AFTER_SECONDS, isDatabaseUnavailable } from './databaseUnavailable.js';

/** Every failure leaves as the contract's `{error, message}`; only a defect or an unreachable database is a 5xx. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((thrown: FastifyError | AppError | Error, request, reply) => {
    const error = thrown instanceof DomainFailure ? AppError.from(thrown) : thrown;
    if (error instanceof AppError) {
      if (error.headers) void reply.headers(error.headers);
      return reply
        .code(error.status)
        .send({ error: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) });
    }
    if (error instanceof EventTooLargeError) {
      return reply.code(413).send({
        error: 'payload_too_large',
        message: `The change is too large to record: ${error.message}. Shorten the text or use fewer entries.`,
      });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details = error.validation.map((v) => ({
        path: `${error.validationContext ?? 'body'}${v.instancePath.replace(/\//g, '.')}`,
        message: v.message ?? 'is invalid',
      }));
      const summary = details.map((d) => `${d.path}: ${d.message}`).join('; ');
      return reply
        .code(400)
        .send({ error: 'validation_failed', message: `The request is not valid: ${summary}`, details });
    }
    const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status === 413)
      return reply.code(413).send({ error: 'payload_too_large', message: 'The request body is too large.' });
    if (status >= 400 && status < 500) {
      return reply
        .code(status)
        .send({ error: status === 415 ? 'unsupported_media_type' : 'validation_failed', message: error.message });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'the database is unavailable');
      return reply.code(503).header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS)).send({
        error: 'database_unavailable',
        message: 'Our service is briefly unavailable; please try again in a few seconds.',
      });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({
      error: 'internal_error',
      message: 'Something went wrong on our side. It has been logged; please try again.',
    });
  });

  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({
      error: 'route_not_found',
      message: `No endpoint answers ${request.method} ${request.url.split('?')[0]}.`,
    }),
  );
}
