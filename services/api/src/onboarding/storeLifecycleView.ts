import { storeStreamOf, type StoreOnboardingView } from '@claims/contracts';
import { activatable, nextOnboardingSteps, storeLifecycleDecider } from '@claims/domain';
import type { AppContext } from '../context.js';
import { loadAggregate } from '../eventsourcing/commandHandler.js';
import { onboardingStores } from '../catalog/storeLifecycleRows.js';

/** Where one store created here stands, folded from its `store:<id>` stream; null for a store of another origin. */
export async function storeOnboardingView(
  ctx: AppContext,
  store: { id: string; slug: string; accountName: string },
): Promise<StoreOnboardingView | null> {
  const { state, version, events } = await loadAggregate(ctx, storeLifecycleDecider, storeStreamOf(store.id));
  if (!state) return null;
  return {
    storeId: state.storeId,
    storeName: state.name,
    slug: store.slug,
    accountId: state.accountId,
    accountName: store.accountName,
    stage: state.stage,
    active: state.active,
    // Each step with the actor its event carries (the n-th step is the n-th event that is a step).
    steps: events
      .filter((e) => e.type === 'StoreCreated' || e.type === 'StoreOnboardingAdvanced')
      .map((e, i) => ({ ...state.steps[i]!, actor: e.metadata.actor })),
    nextSteps: [...nextOnboardingSteps(state)],
    activatable: activatable(state),
    version,
  };
}

/** Every store created in the back-office, newest first (or just one). */
export async function onboardingViews(ctx: AppContext, storeId?: string): Promise<StoreOnboardingView[]> {
  const views = await Promise.all(
    (await onboardingStores(ctx.database.db, storeId)).map((store) => storeOnboardingView(ctx, store)),
  );
  return views.filter((view): view is StoreOnboardingView => view !== null);
}
