import type { Runtime } from '../../src/index.js';
import { createMailer } from '../../src/notifications/mailer.js';

/**
 * A mailer like the runtime's own, sending to the test SMTP server on `smtpPort`: for a test that hands a mail job
 * to the reaction again itself (a replayed event) and checks that nothing goes twice.
 */
export const testMailer = (runtime: Runtime, smtpPort: number) =>
  createMailer(
    { smtpUrl: `smtp://127.0.0.1:${smtpPort}`, from: 'claims@example.test', dataDir: runtime.ctx.config.dataDir },
    runtime.ctx.log,
  );
