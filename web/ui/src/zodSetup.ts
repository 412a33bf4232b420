import { z } from 'zod';

// zod compiles fast parsers with `new Function` unless told not to; the CSP (script-src 'self', no
// 'unsafe-eval') refuses that, and each try is reported as a violation. Parse without eval.
z.config({ jitless: true });
