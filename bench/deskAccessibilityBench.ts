/**
 * The back-office's accessibility and speed (`BENCH_SECTIONS=desk-accessibility make bench`): Lighthouse on the claim
 * desk's queue (`/admin/`) and a claim's page as a signed-in agent would open them, at a desktop's 1440×900 (agents work
 * on desktops). Same stage as the portal section: the API in-process on PGlite with the demo, one claim
 * filed; the agent's session cookie goes with every request. Goal: accessibility 100 on both pages. (The dark theme is
 * checked with axe by the screens browser test: Lighthouse cannot ask for `prefers-color-scheme: dark`.)
 * Env: CHROME_PATH (default /usr/bin/chromium), PORTAL_BENCH_RUNS (Lighthouse runs per page, median; default 3).
 */
import type { Flags } from 'lighthouse';
import { audit, lighthouseVersion, median, startPortalStage, type Metric, type Scores } from './portalBench.js';

const DESKTOP: Flags = {
  formFactor: 'desktop',
  screenEmulation: { mobile: false, width: 1440, height: 900, deviceScaleFactor: 1, disabled: false },
};

async function agentCookie(base: string): Promise<string> {
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'agent@acme.test', password: 'demo-pass-1234' }),
  });
  if (login.status !== 200) throw new Error(`signing in as the agent answered ${login.status}`);
  return String(login.headers.get('set-cookie')).split(';')[0]!;
}

export async function benchDeskAccessibility(): Promise<string> {
  const { base, claimId, chromePort, stop } = await startPortalStage();
  try {
    const cookie = await agentCookie(base);
    const runs = Math.max(1, Number(process.env.PORTAL_BENCH_RUNS ?? 3));
    const pages = [
      { name: 'queue (`/admin/`)', url: `${base}/admin/` },
      { name: 'claim page (`/admin/claims/view/{id}`)', url: `${base}/admin/claims/view/${claimId}` },
    ];
    const rows: string[] = [];
    for (const page of pages) {
      const all: Scores[] = [];
      for (let i = 0; i < runs; i++)
        all.push(await audit(page.url, chromePort, { ...DESKTOP, extraHeaders: { Cookie: cookie } }));
      // Signed out, the page would send the browser to sign-in and be scored instead of the desk.
      const elsewhere = all.find((s) => !s.finalUrl.startsWith(page.url));
      if (elsewhere)
        throw new Error(`Lighthouse ended on ${elsewhere.finalUrl}, not ${page.url}: the agent's session did not hold`);
      const pick = (key: Metric) => median(all.map((s) => s[key]));
      rows.push(
        `| ${page.name} | ${pick('accessibility')} | ${pick('performance')} | ${pick('lcpMs').toFixed(0)} | ` +
          `${pick('tbtMs').toFixed(0)} | ${pick('cls').toFixed(3)} |`,
      );
    }
    return [
      '## Back-office accessibility',
      '',
      `Lighthouse ${lighthouseVersion()} (desktop, 1440×900, simulated throttling; median of ${runs} runs per page), ` +
        'signed in as the demo agent, on the queue and on a freshly filed claim. Goal: accessibility 100.',
      '',
      '| page | accessibility | performance | LCP ms | TBT ms | CLS |',
      '| ---- | ------------: | ----------: | -----: | -----: | --: |',
      ...rows,
    ].join('\n');
  } finally {
    await stop();
  }
}
