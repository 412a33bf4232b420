import type { AcceptedExtension } from '@claims/contracts';

const ascii = (buf: Buffer, start: number, end: number) => buf.subarray(start, end).toString('latin1');

const HEIF_BRANDS = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'mif1', 'msf1']);
const QUICKTIME_ATOMS = new Set(['moov', 'mdat', 'wide', 'free', 'skip', 'pnot']);

/** The ISO-BMFF major brand (bytes 8–12) when the file starts with an `ftyp` box. */
const ftypBrand = (buf: Buffer): string | null =>
  buf.length >= 12 && ascii(buf, 4, 8) === 'ftyp' ? ascii(buf, 8, 12) : null;

/** True when the content's signature bytes fit the extension it was announced with. */
export function contentMatchesExtension(buf: Buffer, ext: AcceptedExtension): boolean {
  switch (ext) {
    case 'jpg':
    case 'jpeg':
      return buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff;
    case 'png':
      return (
        buf.length >= 8 && buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
      );
    case 'gif':
      return buf.length >= 6 && (ascii(buf, 0, 6) === 'GIF87a' || ascii(buf, 0, 6) === 'GIF89a');
    case 'bmp':
      return buf.length >= 14 && ascii(buf, 0, 2) === 'BM';
    case 'webp':
      return buf.length >= 12 && ascii(buf, 0, 4) === 'RIFF' && ascii(buf, 8, 12) === 'WEBP';
    case 'heic': {
      const brand = ftypBrand(buf);
      return brand !== null && HEIF_BRANDS.has(brand);
    }
    case 'mp4': {
      const brand = ftypBrand(buf);
      return brand !== null && brand !== 'qt  ' && !HEIF_BRANDS.has(brand);
    }
    case 'mov': {
      const brand = ftypBrand(buf);
      if (brand !== null) return brand === 'qt  ';
      return buf.length >= 8 && QUICKTIME_ATOMS.has(ascii(buf, 4, 8));
    }
  }
}
