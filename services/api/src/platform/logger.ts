import pino, { type DestinationStream, type Logger } from 'pino';

const EMAIL = /[^\s@&=?/"']+@[^\s@&=?/"']+\.[^\s@&=?/"']+/g;

/** Shoppers' emails never reach the logs in clear: they are masked wherever they appear in a URL. */
export const maskEmails = (text: string): string => text.replace(EMAIL, '[email]').replace(/(email=)[^&]*/gi, '$1[redacted]');

/** A claim token is a bearer secret (spec: the shopper's link); the segment after these paths never reaches the logs. */
const TOKEN_IN_PATH = /(\/(?:api\/claims|view)\/)[^/?#]+/g;

/** What of a URL may be logged: emails masked, claim tokens replaced. */
export const loggableUrl = (url: string): string => maskEmails(url).replace(TOKEN_IN_PATH, '$1[token]');

export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level,
    redact: {
      paths: [
        'req.headers.cookie', 'req.headers.authorization', '*.email', '*.customerEmail', '*.shippingAddress',
        '*.updatedShippingAddress', '*.password',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { method: string; url: string; id: string }) => ({ method: req.method, url: loggableUrl(req.url), id: req.id }),
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
