import { promises as fs } from 'node:fs';
import path from 'node:path';
import { CLAIM_TOKEN_PATTERN } from '@claims/contracts';

/** One chunk of Vite's build manifest (`build.manifest`): its file, the chunks it imports and its stylesheets. */
interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/**
 * The portal pages a claim link opens: the modules their first screen runs (by source path, as the manifest names them)
 * and the API reads it starts with.
 */
const CLAIM_PAGES: Array<{ path: RegExp; modules: string[]; reads: (token: string) => string[]; overview: boolean }> = [
  {
    path: /^\/view\/([^/]+)\/?$/,
    modules: ['src/pages/view.tsx', 'src/pages/claimMessages.tsx', 'src/claimViewSchemas.ts'],
    reads: (t) => [`/api/claims/${t}`, `/api/claims/${t}/messages`],
    overview: true,
  },
  {
    path: /^\/view\/([^/]+)\/review\/?$/,
    modules: ['src/pages/view.tsx', 'src/claimViewSchemas.ts'],
    reads: (t) => [`/api/claims/${t}`],
    overview: false,
  },
];

/** index.html's boot markup (web/portal/index.html, one line), painted before the scripts run. */
const BOOT_MARKUP = /<div id="root">.*<\/div>/;

/**
 * A claim page's boot markup: the portal's own first screen for it (its view-my-claim layout with the "Loading your
 * claim…" page, web/portal/src/router.tsx and pages/view.tsx), so the heading paints with the HTML instead of after the
 * script chain, and the app's first render replaces it with the same boxes (no layout shift). The token is URL-safe.
 */
function claimPageBoot(token: string, overview: boolean): string {
  const active = overview ? ' class="active"' : '';
  const current = overview ? ' data-status="active" aria-current="page"' : '';
  // The empty live region first: the app's UnavailableNotice, always there so a screen reader hears it when it speaks.
  return (
    '<div id="root"><div role="status"></div><a class="skip-link" href="#main">Skip to content</a><header class="site-header"><span class="logo-text">Order help</span>' +
    `<nav class="header-nav" aria-label="My claim"><a${active} href="/view/${token}"${current}>My claim</a><a href="/print/${token}">Print</a></nav></header>` +
    '<main id="main" tabindex="-1"><section class="page" aria-labelledby="page-title"><div class="page-head">' +
    '<h1 id="page-title" tabindex="-1">Loading your claim…</h1></div></section></main></div>'
  );
}

function chunkFiles(manifest: Manifest, key: string, seen: Set<string>): string[] {
  const chunk = manifest[key];
  if (!chunk || seen.has(key)) return [];
  seen.add(key);
  return [chunk.file, ...(chunk.css ?? []), ...(chunk.imports ?? []).flatMap((k) => chunkFiles(manifest, k, seen))];
}

/**
 * The `<link>`s that let a claim page's browser fetch everything its first screen needs while the entry script is
 * still loading: the page's chunks, its stylesheet and the claim itself. Without them each waits for the script before
 * it (entry, then the page's chunk, then the claim), three round trips in a row on a slow phone.
 * The same requests the app makes (`crossorigin`: the mode of `fetch` and of Vite's chunk loader), so the app reuses the answers.
 */
export function claimPagePreloads(urlPath: string, html: string, manifest: Manifest): string {
  const page = claimPage(urlPath);
  if (!page) return '';
  const seen = new Set<string>();
  const files = [...new Set(page.modules.flatMap((m) => chunkFiles(manifest, m, seen)))].filter(
    (file) => !html.includes(`/${file}"`),
  );
  return [
    ...page.reads(page.token).map((url) => `<link rel="preload" as="fetch" crossorigin href="${url}">`),
    ...files.map((file) =>
      file.endsWith('.css')
        ? `<link rel="preload" as="style" crossorigin href="/${file}">`
        : `<link rel="modulepreload" crossorigin href="/${file}">`,
    ),
  ].join('\n    ');
}

/** The claim page `urlPath` opens, with its token (none for another path or a malformed token). */
function claimPage(urlPath: string): ((typeof CLAIM_PAGES)[number] & { token: string }) | null {
  for (const page of CLAIM_PAGES) {
    const token = page.path.exec(urlPath)?.[1];
    if (!token) continue;
    return CLAIM_TOKEN_PATTERN.test(token) ? { ...page, token } : null;
  }
  return null;
}

/** index.html for `urlPath`, with a claim page's preloads at the end of its head (the manifest read alongside it, as a rebuild changes both). */
export async function withClaimPagePreloads(dist: string, urlPath: string, index: Buffer): Promise<Buffer> {
  if (!CLAIM_PAGES.some((page) => page.path.test(urlPath))) return index;
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await fs.readFile(path.join(dist, '.vite/manifest.json'), 'utf8')) as Manifest;
  } catch {
    return index;
  }
  const html = index.toString('utf8');
  const page = claimPage(urlPath);
  const links = claimPagePreloads(urlPath, html, manifest);
  if (!page || !links) return index;
  return Buffer.from(
    html.replace('</head>', `  ${links}\n  </head>`).replace(BOOT_MARKUP, claimPageBoot(page.token, page.overview)),
  );
}
