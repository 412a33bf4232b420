import { promises as fs } from 'node:fs';
import path from 'node:path';

/** Where uploaded files live: on disk by default; an object store can implement the same three calls. */
export interface MediaStorage {
  /** Stores a new object; false when the key is already taken (an upload URL accepts one upload). */
  putNew(key: string, data: Buffer): Promise<boolean>;
  get(key: string): Promise<Buffer | null>;
  exists(key: string): Promise<boolean>;
}

/** Keys are flat names checked by the caller (`<uuid>.<ext>`); the folder is created on first use. */
export class DiskMediaStorage implements MediaStorage {
  constructor(private readonly dir: string) {}

  private file(key: string): string {
    if (!/^[\w.-]+$/.test(key) || key.startsWith('.')) throw new Error(`invalid media key ${key}`);
    return path.join(this.dir, key);
  }

  async putNew(key: string, data: Buffer): Promise<boolean> {
    await fs.mkdir(this.dir, { recursive: true });
    const target = this.file(key);
    const partial = `${target}.${process.pid}.${Date.now()}.part`;
    await fs.writeFile(partial, data, { flag: 'wx' });
    try {
      // link() fails when the target exists: the first complete upload wins, atomically.
      await fs.link(partial, target);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw error;
    } finally {
      await fs.rm(partial, { force: true });
    }
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await fs.readFile(this.file(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      await fs.access(this.file(key));
      return true;
    } catch {
      return false;
    }
  }
}
