/** A stored file's key in its download link (`…/api/media/files/<uuid>.<ext>`), or null for any other URL. */
const KEY_IN_URL =
  /\/api\/media\/files\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.[a-z0-9]{2,5})(?:[?#]|$)/i;

export function mediaKeyOf(url: string): string | null {
  return KEY_IN_URL.exec(url)?.[1]?.toLowerCase() ?? null;
}
