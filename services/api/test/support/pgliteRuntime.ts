import type { Runtime, RuntimeOptions } from '../../src/index.js';
import { startPgliteDemo } from '../../../../test/support/seededDemo.js';

export interface PgliteRuntime {
  runtime: Runtime;
  dataDir: string;
  stop(): Promise<void>;
}

/** The whole product in-process on a PGlite folder of its own holding the demo data, no workers unless asked. */
export const startPgliteRuntime = (
  name: string,
  env: Record<string, string> = {},
  options: RuntimeOptions = {},
): Promise<PgliteRuntime> =>
  startPgliteDemo(name, { LOG_LEVEL: 'silent', ...env }, { listen: false, workers: false, ...options });

/** Path and query of an absolute URL the API handed out, for app.inject. */
export const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

/** Signs a demo user in and returns the session cookie. */
export async function signIn(runtime: Runtime, email: string): Promise<string> {
  const res = await runtime.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { email, password: 'demo-pass-1234' },
  });
  if (res.statusCode !== 200) throw new Error(`login of ${email} answered ${res.statusCode}`);
  return String(res.headers['set-cookie']).split(';')[0]!;
}
