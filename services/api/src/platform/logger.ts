import pino, { type DestinationStream, type Logger } from 'pino';

const EMAIL = /[^\s@&=?/"']+@[^\s@&=?/"']+\.[^\s@&=?/"']+/g;

/** Shoppers' emails never reach the logs in clear: they are masked wherever they appear in a URL. */
export const maskEmails = (text: string): string =>
  text.replace(EMAIL, '[email]').replace(/(email=)[^&]*/gi, '$1[redacted]');

/** A claim token is a bearer secret (spec: the shopper's link); the segment after these paths never reaches the logs. */
const TOKEN_IN_PATH = /(\/(?:api\/claims|view)\/)[^/?#]+/g;

/** What of a URL may be logged: emails masked, claim tokens replaced. */
export const loggableUrl = (url: string): string => maskEmails(url).replace(TOKEN_IN_PATH, '$1[token]');

/** What standard output may hold unwritten while its reader is slow; beyond it lines are dropped, not kept in memory. */
const MAX_UNWRITTEN_LOG_BYTES = 16 * 1024 * 1024;
/** How long a process leaving may wait for its reader to take the last lines. */
const EXIT_FLUSH_MS = 1_000;

/**
 * Standard output, written asynchronously. pino writes what is still unwritten when the process exits, waiting as long
 * as it takes: with a reader that stopped reading (a full pipe), that was forever, and a server told to stop never did.
 * Here it waits at most EXIT_FLUSH_MS, then leaves the rest.
 */
function standardOutput(): DestinationStream {
  let giveUpAt = Number.POSITIVE_INFINITY;
  const stream = pino.destination({
    dest: 1,
    sync: false,
    maxLength: MAX_UNWRITTEN_LOG_BYTES,
    retryEAGAIN: () => Date.now() < giveUpAt,
  });
  const flushSync = stream.flushSync.bind(stream);
  stream.flushSync = () => {
    giveUpAt = Date.now() + EXIT_FLUSH_MS;
    try {
      flushSync();
    } catch {
      // The reader took nothing within the limit: the lines it did not take are lost with it.
    }
  };
  return stream;
}

export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        '*.email',
        '*.customerEmail',
        '*.shippingAddress',
        '*.updatedShippingAddress',
        '*.password',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { method: string; url: string; id: string }) => ({
        method: req.method,
        url: loggableUrl(req.url),
        id: req.id,
      }),
    },
  };
  return pino(options, destination ?? standardOutput());
}
