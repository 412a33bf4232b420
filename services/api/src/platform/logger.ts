import pino, { type Logger } from 'pino';

const EMAIL = /[^\s@&=?/"']+@[^\s@&=?/"']+\.[^\s@&=?/"']+/g;

/** Shoppers' emails never reach the logs in clear: they are masked wherever they appear in a URL. */
export const maskEmails = (text: string): string => text.replace(EMAIL, '[email]').replace(/(email=)[^&]*/gi, '$1[redacted]');

export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: [
        'req.headers.cookie', 'req.headers.authorization', '*.email', '*.customerEmail', '*.shippingAddress',
        '*.updatedShippingAddress', '*.password',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: (req: { method: string; url: string; id: string }) => ({ method: req.method, url: maskEmails(req.url), id: req.id }),
    },
  });
}
