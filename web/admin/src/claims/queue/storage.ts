import { z } from 'zod';

/** A versioned key: a later shape change starts clean instead of misreading old data. */
const COLUMNS_KEY = 'claims-admin:columns:v1';

function read<T>(key: string, schema: z.ZodType<T>, fallback: T): T {
  try {
    const raw = window.localStorage.getItem(key);
    if (!raw) return fallback;
    const parsed = schema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : fallback;
  } catch {
    return fallback;
  }
}

function write(key: string, value: unknown): void {
  try {
    window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or disabled: the choice lasts for this page only.
  }
}

/** Column id → visible; an absent id is visible. */
export const ColumnVisibility = z.record(z.string(), z.boolean());
export type ColumnVisibility = z.infer<typeof ColumnVisibility>;

export const loadColumns = (fallback: ColumnVisibility) => read(COLUMNS_KEY, ColumnVisibility, fallback);
export const saveColumns = (value: ColumnVisibility) => write(COLUMNS_KEY, value);
