import { config } from 'zod';

// zod compiles fast parsers with `new Function` unless told not to; the CSP (script-src 'self', no
// 'unsafe-eval') refuses that, and each try is reported as a violation. Parse without eval.
// Called by its own name: the portal's build takes calls through `z` for pure schema declarations (vite.config.ts).
config({ jitless: true });
