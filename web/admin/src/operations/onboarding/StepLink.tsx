import { Link } from '@tanstack/react-router';
import type { OnboardingStep, StoreOnboardingView } from '@claims/contracts';
import { can, useMe } from '../../shared/session.js';

/** A checklist row: one of the path's steps, or the activation that ends it. */
type ChecklistStep = Exclude<OnboardingStep, 'reject'> | 'activate';

/**
 * Where the work of a step is done, so the checklist leads there instead of leaving staff to find it: the team to
 * invite the owner, the branding editor, the store's portal to look over, its settings. Shown only to someone who may
 * open that page for this store.
 */
export function StepLink({ step, store }: { step: ChecklistStep; store: StoreOnboardingView }) {
  const me = useMe();
  const search = { store: store.storeId };
  switch (step) {
    case 'create':
      return can(me, 'team-member:invite', store.storeId) ? (
        <Link to="/team" search={search} className="onboarding-step-link">
          Invite the store's owner
        </Link>
      ) : null;
    case 'brand-create':
    case 'review':
      return can(me, 'branding:read', store.storeId) ? (
        <Link to="/branding" search={search} className="onboarding-step-link">
          {step === 'brand-create' ? 'Open the branding editor' : 'Look over the branding'}
        </Link>
      ) : null;
    case 'approve':
    case 'deploy':
      // The shopper's portal of the store, as its shoppers will see it.
      return (
        <a href={`/start?store=${encodeURIComponent(store.slug)}`} className="onboarding-step-link">
          Preview the store's portal
        </a>
      );
    case 'activate':
      return can(me, 'settings-general:read', store.storeId) ? (
        <Link to="/settings" search={search} className="onboarding-step-link">
          Check the store's settings
        </Link>
      ) : null;
  }
}
