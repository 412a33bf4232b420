import { promises as fs } from 'node:fs';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { Resvg } from '@resvg/resvg-js';
import type { AppContext } from '../context.js';
import { DiskMediaStorage, mediaDirOf } from '../media/index.js';
import { PORTAL_DIST } from '../web/index.js';

/** An image a mail carries as an inline part, shown by `cid:`: no mail client has to fetch it from this server. */
export interface InlineImage {
  cid: string;
  filename: string;
  contentType: 'image/png' | 'image/jpeg';
  content: Buffer;
}

/** The portal's static files as built, or as its sources hold them (`public/` is copied into the build as is). */
const PORTAL_FILES = [PORTAL_DIST, path.resolve(PORTAL_DIST, '../public')];
const MEDIA_PATH = /^\/api\/media\/files\/([\w-]+\.[a-z0-9]{2,5})$/;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);

async function portalFile(urlPath: string): Promise<Buffer | null> {
  for (const root of PORTAL_FILES) {
    const file = path.resolve(root, `.${path.posix.normalize(urlPath)}`);
    if (!file.startsWith(root + path.sep)) return null;
    const bytes = await fs.readFile(file).catch(() => null);
    if (bytes) return bytes;
  }
  return null;
}

/** The bytes of a logo this server serves itself (the portal's files, uploaded media); null for another site's. */
async function logoBytes(ctx: AppContext, logoUrl: string): Promise<Buffer | null> {
  const url = new URL(logoUrl, `${ctx.config.publicUrl}/`);
  if (url.origin !== new URL(ctx.config.publicUrl).origin) return null;
  const media = MEDIA_PATH.exec(url.pathname);
  if (media) {
    const file = await new DiskMediaStorage(mediaDirOf(ctx.config.dataDir)).open(media[1]!);
    return file && buffer(file.stream);
  }
  return url.pathname.startsWith('/api/') ? null : portalFile(url.pathname);
}

/**
 * A logo as mail carries it: a PNG or JPEG as is, an SVG drawn to a PNG at twice its width in the mail (sharp on dense
 * screens). SVG is refused by most mail clients, and a logo fetched from this server would meet its
 * `Cross-Origin-Resource-Policy: same-origin` in webmail; an inline part needs neither. resvg (Rust, no browser, no
 * native build: prebuilt per platform) draws it; text in an SVG needs the machine's fonts.
 */
export function inlineLogo(bytes: Buffer, width: number): InlineImage | null {
  const cid = 'logo@mail';
  if (bytes.subarray(0, 4).equals(PNG)) return { cid, filename: 'logo.png', contentType: 'image/png', content: bytes };
  if (bytes.subarray(0, 3).equals(JPEG))
    return { cid, filename: 'logo.jpg', contentType: 'image/jpeg', content: bytes };
  if (!/<svg[\s>]/.test(bytes.subarray(0, 4096).toString('utf8'))) return null;
  const png = new Resvg(bytes, { fitTo: { mode: 'width', value: width * 2 }, font: { loadSystemFonts: true } })
    .render()
    .asPng();
  return { cid, filename: 'logo.png', contentType: 'image/png', content: png };
}

/** Logos drawn already, by URL and width: each is drawn once per process, not once per mail. */
const drawn = new Map<string, InlineImage | null>();
const DRAWN_AT_MOST = 200;

/** The store's logo as an inline image for its mail; null when it is another site's or cannot be read or drawn. */
export async function mailLogo(ctx: AppContext, logoUrl: string, width: number): Promise<InlineImage | null> {
  const key = `${width}:${logoUrl}`;
  if (drawn.has(key)) return drawn.get(key)!;
  let image: InlineImage | null;
  try {
    const bytes = await logoBytes(ctx, logoUrl);
    image = bytes && inlineLogo(bytes, width);
  } catch (error) {
    // Not remembered: a file being replaced or a full disk may read well at the next mail.
    ctx.log.warn({ err: error, logoUrl }, 'a store logo could not be drawn for mail; its name is shown instead');
    return null;
  }
  if (drawn.size >= DRAWN_AT_MOST) drawn.clear();
  drawn.set(key, image);
  return image;
}
