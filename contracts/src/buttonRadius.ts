// Without zod: the portal applies a store's branding at start-up, before any schema is built.

/** Button radius per button style (docs/product.md#look-and-feel). */
export const BUTTON_RADIUS = { ROUNDED: '6px', ROUNDED_FULL: '9999px', SQUARE: '0px' } as const;
