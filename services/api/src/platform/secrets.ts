import { createHash, randomBytes } from 'node:crypto';

/** Secrets with 256 random bits (session cookies, API tokens) are stored as their SHA-256. */
export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

export const randomSecret = (bytes = 32): string => randomBytes(bytes).toString('base64url');
