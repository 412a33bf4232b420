import { z } from 'zod';
import { Actor } from './events.js';
import { StoreRef } from './backoffice.js';
import { CurrencyCode } from './money.js';
import { OnboardingStage, OnboardingStep } from './storeLifecycle.js';

export const AccountView = z.object({
  id: z.uuid(),
  slug: z.string(),
  name: z.string(),
  storeCount: z.number().int().nonnegative(),
});
export type AccountView = z.infer<typeof AccountView>;
export const AccountList = z.object({ data: z.array(AccountView) });
export type AccountList = z.infer<typeof AccountList>;

/** One store of an account: where shoppers reach it and whether they can yet (inactive until activated). */
export const AccountStore = StoreRef.extend({
  domain: z.string().nullable(),
  currency: CurrencyCode,
  active: z.boolean(),
});
export type AccountStore = z.infer<typeof AccountStore>;
/** `GET /api/admin/accounts/{accountId}/stores` (`account-stores:read`): the account's stores the caller sees, by name. */
export const AccountStores = z.object({ account: AccountView, data: z.array(AccountStore) });
export type AccountStores = z.infer<typeof AccountStores>;

/** One step a store went through: when, by whom, and why (a rejection's reason). */
export const OnboardingStepRecord = z.object({
  step: OnboardingStep,
  at: z.iso.datetime(),
  actor: Actor,
  note: z.string(),
});
export type OnboardingStepRecord = z.infer<typeof OnboardingStepRecord>;

/** Where a store created here stands: its stage, every step so far and what may come next. */
export const StoreOnboardingView = z.object({
  storeId: z.uuid(),
  storeName: z.string(),
  slug: z.string(),
  accountId: z.uuid(),
  accountName: z.string(),
  stage: OnboardingStage,
  /** Shoppers reach the store (activated after deployment). */
  active: z.boolean(),
  steps: z.array(OnboardingStepRecord),
  /** The steps the stage allows next, whoever may take them. */
  nextSteps: z.array(OnboardingStep),
  /** Deployed and not active yet: `store:activate` may activate it. */
  activatable: z.boolean(),
  version: z.number().int().positive(),
});
export type StoreOnboardingView = z.infer<typeof StoreOnboardingView>;

/** `GET /api/admin/onboarding`: every store created through the back-office, newest first. */
export const OnboardingList = z.object({ data: z.array(StoreOnboardingView) });
export type OnboardingList = z.infer<typeof OnboardingList>;
