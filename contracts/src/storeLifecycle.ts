import { z } from 'zod';
import type { Permission } from './permissions.js';
import { CurrencyCode } from './money.js';
import type { StoreSettings } from './storeSettings.js';

/**
 * Accounts and stores created by Order Protection's staff, and the onboarding a new store goes
 * through before shoppers reach it (docs/product.md#store-onboarding). Each is an event: an account's
 * `account:<id>` stream, a store's `store:<id>` stream (docs/decisions/accounts-stores-onboarding.md).
 */

export const accountStreamOf = (accountId: string): string => `account:${accountId}`;
export const storeStreamOf = (storeId: string): string => `store:${storeId}`;

/** Lowercase words joined by single hyphens: what the portal's `?store=` and the back-office show. */
export const Slug = z
  .string()
  .trim()
  .min(2)
  .max(60)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'Use lowercase letters, digits and single hyphens (e.g. acme-outfitters).');
const Domain = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(
    /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
    'Enter a host name such as claims.example.com.',
  );

// ---------------------------------------------------------------------------------------------
// Onboarding: the steps (`implementation:*` actions, docs/product.md#store-onboarding) and the stage each leaves the store in.

export const ONBOARDING_STEPS = ['create', 'brand-create', 'review', 'approve', 'reject', 'deploy'] as const;
export const OnboardingStep = z.enum(ONBOARDING_STEPS);
export type OnboardingStep = z.infer<typeof OnboardingStep>;

export const OnboardingStage = z.enum(['created', 'branded', 'in_review', 'approved', 'rejected', 'deployed']);
export type OnboardingStage = z.infer<typeof OnboardingStage>;

/** The stage each step leaves the store in. */
export const STAGE_AFTER_STEP: Readonly<Record<OnboardingStep, OnboardingStage>> = {
  create: 'created',
  'brand-create': 'branded',
  review: 'in_review',
  approve: 'approved',
  reject: 'rejected',
  deploy: 'deployed',
};

/**
 * The steps each stage allows: branding (again) until it is sent for review, a review ends approved or
 * rejected, a rejected store is branded or reviewed again, only an approved one is deployed.
 */
export const NEXT_ONBOARDING_STEPS: Readonly<Record<OnboardingStage, readonly OnboardingStep[]>> = {
  created: ['brand-create'],
  branded: ['brand-create', 'review'],
  in_review: ['approve', 'reject'],
  rejected: ['brand-create', 'review'],
  approved: ['deploy'],
  deployed: [],
};

/** Who may take each step: the implementation action of the same name. */
export const ONBOARDING_STEP_PERMISSION: Readonly<Record<OnboardingStep, Permission>> = {
  create: 'implementation:create',
  'brand-create': 'implementation:brand-create',
  review: 'implementation:review',
  approve: 'implementation:approve',
  reject: 'implementation:reject',
  deploy: 'implementation:deploy',
};

export const ONBOARDING_STEP_LABELS: Readonly<Record<OnboardingStep, string>> = {
  create: 'Store created',
  'brand-create': 'Branding created',
  review: 'Sent for review',
  approve: 'Approved',
  reject: 'Rejected',
  deploy: 'Deployed',
};

export const ONBOARDING_STAGE_LABELS: Readonly<Record<OnboardingStage, string>> = {
  created: 'Created',
  branded: 'Branded',
  in_review: 'In review',
  approved: 'Approved',
  rejected: 'Rejected',
  deployed: 'Deployed',
};

// ---------------------------------------------------------------------------------------------
// Event data

export const accountCreatedData = z.object({
  accountId: z.uuid(),
  slug: Slug,
  name: z.string(),
  createdAt: z.iso.datetime(),
});
export const storeCreatedData = z.object({
  storeId: z.uuid(),
  accountId: z.uuid(),
  slug: Slug,
  name: z.string(),
  currency: CurrencyCode,
  domain: z.string().nullable(),
  createdAt: z.iso.datetime(),
});
/** One onboarding step after the store's creation; `note` says why (a rejection's reason). */
export const storeOnboardingAdvancedData = z.object({
  storeId: z.uuid(),
  step: OnboardingStep.exclude(['create']),
  note: z.string(),
  at: z.iso.datetime(),
});
export const storeActivatedData = z.object({ storeId: z.uuid(), activatedAt: z.iso.datetime() });

// ---------------------------------------------------------------------------------------------
// Commands

export const CreateAccount = z.object({
  type: z.literal('CreateAccount'),
  accountId: z.uuid(),
  slug: Slug,
  name: z.string(),
  now: z.iso.datetime(),
});
export type CreateAccount = z.infer<typeof CreateAccount>;

export const CreateStore = z.object({
  type: z.literal('CreateStore'),
  storeId: z.uuid(),
  accountId: z.uuid(),
  slug: Slug,
  name: z.string(),
  currency: CurrencyCode,
  domain: z.string().nullable(),
  now: z.iso.datetime(),
});
export const AdvanceOnboarding = z.object({
  type: z.literal('AdvanceOnboarding'),
  step: OnboardingStep.exclude(['create']),
  note: z.string(),
  now: z.iso.datetime(),
});
export const ActivateStore = z.object({ type: z.literal('ActivateStore'), now: z.iso.datetime() });
export const StoreLifecycleCommand = z.discriminatedUnion('type', [CreateStore, AdvanceOnboarding, ActivateStore]);
export type StoreLifecycleCommand = z.infer<typeof StoreLifecycleCommand>;

// ---------------------------------------------------------------------------------------------
// Requests

export const CreateAccountRequest = z.object({ name: z.string().trim().min(1).max(120), slug: Slug });
export type CreateAccountRequest = z.infer<typeof CreateAccountRequest>;

export const CreateStoreRequest = z.object({
  accountId: z.uuid(),
  name: z.string().trim().min(1).max(120),
  slug: Slug,
  currency: CurrencyCode,
  domain: Domain.nullable().default(null),
});
export type CreateStoreRequest = z.infer<typeof CreateStoreRequest>;

export const OnboardingStepRequest = z
  .object({
    step: OnboardingStep.exclude(['create']),
    note: z.string().trim().max(2_000).default(''),
  })
  .refine((value) => value.step !== 'reject' || value.note.length > 0, {
    message: 'Say why the store is rejected.',
    path: ['note'],
  });
export type OnboardingStepRequest = z.input<typeof OnboardingStepRequest>;

/**
 * What a new store starts with until its team sets its own: reship and refund offered, no store credit or
 * returns, claims from 3 to 30 days after delivery (the demo stores' window).
 */
export const NEW_STORE_SETTINGS = {
  capabilities: { credit: false, refund: true, reship: true, returns: false },
  credit: { enabled: false, bonus: 0, bonusType: 'percentage' },
  returns: { portalUrl: null, trackingUrl: null },
  claimWaitDays: 3,
  claimWindowDays: 30,
  allowOneTimeAppeasement: false,
} as const satisfies StoreSettings;
