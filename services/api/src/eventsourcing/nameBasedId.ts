import { createHash } from 'node:crypto';

/**
 * A UUID (version 5 layout) derived from a name: the same name always gives the same stream id, so
 * a stream can be found, or a retried command land on the same one, without a lookup table.
 */
export function nameBasedId(name: string): string {
  const hex = createHash('sha256').update(name).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
