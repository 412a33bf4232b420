import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, promises as fs, type ReadStream } from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Where uploaded files are kept on disk: beside the embedded database, under DATA_DIR. */
export const mediaDirOf = (dataDir: string): string => path.join(dataDir, 'media');

/** Why a streamed upload was not stored. */
export type PutRefusal = 'too_large' | 'empty' | 'wrong_content' | 'taken';
export type PutResult = { stored: true; size: number; sha256: string } | { stored: false; reason: PutRefusal };

/** Where uploaded files live: on disk by default; an object store can implement the same calls. */
export interface MediaStorage {
  /**
   * Streams a new object in, never holding it whole: refused when it grows past `maxBytes`, is
   * empty, its first bytes fail `headFits`, or the key is already taken (a URL accepts one upload).
   */
  putNew(key: string, body: Readable, maxBytes: number, headFits: (head: Buffer) => boolean): Promise<PutResult>;
  /** A stream of the object and its size, or null when there is none. */
  open(key: string): Promise<{ stream: ReadStream; size: number } | null>;
  remove(key: string): Promise<void>;
  /** Partial uploads left by a dead process, older than `before`, are removed; returns how many. */
  removeStalePartials(before: Date): Promise<number>;
}

/** Bytes of a file's start that identify its kind (the longest signature checked is 12 bytes). */
const HEAD_BYTES = 16;

class TooLarge extends Error {}

/** Passes bytes through until more than `max` have passed, then fails the pipeline; hashes what passes on the way. */
const sizeCap = (max: number, counted: { size: number; hash: ReturnType<typeof createHash> }) =>
  new Transform({
    transform(chunk: Buffer, _encoding, done) {
      counted.size += chunk.length;
      counted.hash.update(chunk);
      if (counted.size > max) done(new TooLarge());
      else done(null, chunk);
    },
  });

/** Keys are flat names checked by the caller (`<uuid>.<ext>`); the folder is created on first use. */
export class DiskMediaStorage implements MediaStorage {
  constructor(private readonly dir: string) {}

  private file(key: string): string {
    if (!/^[\w.-]+$/.test(key) || key.startsWith('.')) throw new Error(`invalid media key ${key}`);
    return path.join(this.dir, key);
  }

  async putNew(key: string, body: Readable, maxBytes: number, headFits: (head: Buffer) => boolean): Promise<PutResult> {
    await fs.mkdir(this.dir, { recursive: true });
    const target = this.file(key);
    const partial = `${target}.${process.pid}.${Date.now()}.part`;
    const counted = { size: 0, hash: createHash('sha256') };
    try {
      // The body is piped, not part of the pipeline: a body refused as too large is left unread, not
      // destroyed, so the caller can still answer on its connection (and then close it).
      const cap = sizeCap(maxBytes, counted);
      body.on('error', (error) => cap.destroy(error));
      body.pipe(cap);
      try {
        await pipeline(cap, createWriteStream(partial, { flags: 'wx' }));
      } catch (error) {
        body.unpipe(cap);
        if (error instanceof TooLarge) return { stored: false, reason: 'too_large' };
        throw error;
      }
      if (counted.size === 0) return { stored: false, reason: 'empty' };
      const handle = await fs.open(partial, 'r');
      const head = Buffer.alloc(HEAD_BYTES);
      try {
        await handle.read(head, 0, HEAD_BYTES, 0);
      } finally {
        await handle.close();
      }
      if (!headFits(head.subarray(0, Math.min(HEAD_BYTES, counted.size))))
        return { stored: false, reason: 'wrong_content' };
      // link() fails when the target exists: the first complete upload wins, atomically.
      await fs.link(partial, target);
      return { stored: true, size: counted.size, sha256: counted.hash.digest('hex') };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return { stored: false, reason: 'taken' };
      throw error;
    } finally {
      await fs.rm(partial, { force: true });
    }
  }

  async open(key: string): Promise<{ stream: ReadStream; size: number } | null> {
    const file = this.file(key);
    try {
      const stat = await fs.stat(file);
      return { stream: createReadStream(file), size: stat.size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    await fs.rm(this.file(key), { force: true });
  }

  async removeStalePartials(before: Date): Promise<number> {
    let removed = 0;
    const names = await fs.readdir(this.dir).catch(() => [] as string[]);
    for (const name of names.filter((n) => n.endsWith('.part'))) {
      const file = path.join(this.dir, name);
      const stat = await fs.stat(file).catch(() => null);
      if (stat && stat.mtime < before) {
        await fs.rm(file, { force: true });
        removed++;
      }
    }
    return removed;
  }
}
