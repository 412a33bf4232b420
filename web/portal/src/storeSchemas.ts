import '@claims/ui/zod-setup';

/**
 * The store's public facts: their schema extends the store's settings (the settings groups, money rules, metadata),
 * which no first screen needs, so it is imported when a page first asks for a store.
 */
export { PublicStore } from '@claims/contracts';
