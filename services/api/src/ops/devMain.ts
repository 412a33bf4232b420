import { loadConfig } from '../config.js';
import { serve } from '../server.js';
import { startMailCatcher } from './mailCatcher.js';

/**
 * `make dev` (`npm run dev`): the server as `npm start` runs it, and, without SMTP_URL, a local mail catcher beside it
 * in the same process, so the mail the product sends can be read in a browser; one command, one Ctrl-C.
 */
try {
  const config = loadConfig();
  const catcher = config.mail.smtpUrl ? null : await startMailCatcher();
  const runtime = await serve(
    catcher ? { ...config, mail: { ...config.mail, smtpUrl: catcher.smtpUrl } } : config,
    async () => catcher?.stop(),
  );
  if (catcher) {
    runtime.ctx.log.info(
      { smtp: catcher.smtpUrl, viewer: catcher.viewerUrl },
      `no SMTP_URL: mail goes to the local mail catcher; read it at ${catcher.viewerUrl}`,
    );
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
