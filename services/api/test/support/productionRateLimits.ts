/** The portal's rate limits as production sets them (20/10 lookups, 5/5 filings a minute), whatever the test run's environment says. */
export const PRODUCTION_RATE_LIMITS = {
  RATE_LIMIT_ENABLED: 'true',
  RATE_LIMIT_WINDOW_MS: '60000',
  RATE_LIMIT_LOOKUP_PER_IP: '20',
  RATE_LIMIT_LOOKUP_PER_ORDER: '10',
  RATE_LIMIT_FILING_PER_IP: '5',
  RATE_LIMIT_FILING_PER_ORDER: '5',
};
