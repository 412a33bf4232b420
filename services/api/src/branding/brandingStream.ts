import { sql } from 'kysely';
import {
  type DomainEvent,
  storeBrandingStreamOf,
  type Actor,
  type Branding,
  type BrandingCommand,
  type Store,
} from '@claims/contracts';
import { brandingDecider, type BrandingState } from '@claims/domain';
import { storedDomainEvent, readStream, type Alongside } from '@claims/event-store';
import type { AppContext, RequestMeta } from '../context.js';
import { foldRecorded, handleCommand, type Handled } from '../eventsourcing/commandHandler.js';

export interface BrandingStream {
  version: number;
  records: Array<{ version: number; event: DomainEvent; actor: Actor }>;
  state: BrandingState | null;
}

/** A store's branding stream, read and folded (small: one event per change). */
export async function readBrandingStream(
  db: Parameters<typeof readStream>[0],
  storeId: string,
): Promise<BrandingStream> {
  const { version, events } = await readStream(db, storeBrandingStreamOf(storeId));
  const records = events.map((e) => ({
    version: e.streamVersion,
    event: storedDomainEvent(e),
    actor: e.metadata.actor,
  }));
  return { version, records, state: foldRecorded(brandingDecider, events) };
}

/**
 * The catalog's copy (the `stores` row's branding and domain), refolded inside the append's transaction:
 * the portal and the Host lookup see a change the moment it commits.
 */
const syncCatalog =
  (storeId: string): Alongside =>
  async (trx) => {
    const { state } = await readBrandingStream(trx, storeId);
    if (state?.branding)
      await sql`update stores set branding = ${JSON.stringify(state.branding)}::jsonb where id = ${storeId}::uuid`.execute(
        trx,
      );
    if (state && state.domain !== undefined)
      await sql`update stores set domain = ${state.domain} where id = ${storeId}::uuid`.execute(trx);
  };

/** Every branding and white-label command: the one command handler, the stream's version as the editor's `expectedVersion`. */
export function handleBranding(
  ctx: AppContext,
  store: Store,
  meta: RequestMeta,
  command: BrandingCommand,
  expectedVersion?: number,
): Promise<Handled<BrandingState | null>> {
  return handleCommand(ctx, {
    decider: brandingDecider,
    streamId: storeBrandingStreamOf(store.id),
    storeId: store.id,
    meta,
    command,
    expectedVersion,
    alongside: syncCatalog(store.id),
  });
}

/** Same-origin asset paths with the white-label revision, so a restart makes browsers fetch the files again. */
export function withRevision(branding: Branding, revision: number): Branding {
  if (revision === 0) return branding;
  const bust = (url: string | undefined) =>
    url && url.startsWith('/') ? `${url}${url.includes('?') ? '&' : '?'}v=${revision}` : url;
  const logoUrl = bust(branding.logoUrl);
  const backgroundImage = bust(branding.backgroundImage);
  return {
    ...branding,
    ...(logoUrl === undefined ? {} : { logoUrl }),
    ...(backgroundImage === undefined ? {} : { backgroundImage }),
    ...(branding.fontFiles
      ? { fontFiles: branding.fontFiles.map((font) => ({ ...font, url: bust(font.url) ?? font.url })) }
      : {}),
  };
}
