import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  NEXT_ONBOARDING_STEPS,
  ONBOARDING_STEPS,
  STAGE_AFTER_STEP,
  type DomainEvent,
  type OnboardingStep,
  type StoreLifecycleCommand,
} from '@claims/contracts';
import { accountDecider, storeLifecycleDecider, type StoreLifecycleState } from '../src/index.js';

const storeId = 'b1111111-1111-4111-8111-111111111111';
const accountId = 'a1111111-1111-4111-8111-111111111111';
const now = '2026-11-23T10:00:00.000Z';
const create: StoreLifecycleCommand = {
  type: 'CreateStore',
  storeId,
  accountId,
  slug: 'noord',
  name: 'Noord',
  currency: 'EUR',
  domain: null,
  now,
};

/** Decides `command` on `state` and folds what it decided: the new state, or the refusal's code. */
function run(
  state: StoreLifecycleState | null,
  command: StoreLifecycleCommand,
): { state: StoreLifecycleState | null; error: string | null; events: DomainEvent[] } {
  const decision = storeLifecycleDecider.decide(command, state);
  if (!decision.ok) return { state, error: decision.error.code, events: [] };
  return { state: decision.value.reduce(storeLifecycleDecider.evolve, state), error: null, events: decision.value };
}

const created = () => run(null, create).state!;

describe("a store's creation and onboarding", () => {
  it('creates a store once, inactive, at the created stage', () => {
    const state = created();
    expect(state).toMatchObject({ stage: 'created', active: false, steps: [{ step: 'create' }] });
    expect(run(state, create).error).toBe('already_exists');
    expect(
      accountDecider.decide({ type: 'CreateAccount', accountId, slug: 'noord', name: 'Noord', now }, { name: 'Noord' })
        .ok,
    ).toBe(false);
  });

  it('asks a reason for a rejection and activates only a deployed store, once', () => {
    let state = created();
    expect(run(state, { type: 'ActivateStore', now }).error).toBe('invalid_transition');
    for (const step of ['brand-create', 'review'] as const)
      state = run(state, { type: 'AdvanceOnboarding', step, note: '', now }).state!;
    expect(run(state, { type: 'AdvanceOnboarding', step: 'reject', note: ' ', now }).error).toBe('validation_failed');
    for (const step of ['approve', 'deploy'] as const)
      state = run(state, { type: 'AdvanceOnboarding', step, note: '', now }).state!;
    const activated = run(state, { type: 'ActivateStore', now });
    expect(activated.events.map((e) => e.type)).toEqual(['StoreActivated']);
    expect(run(activated.state, { type: 'ActivateStore', now }).events).toEqual([]);
  });

  it('follows the step table whatever is asked: a step is taken iff its stage allows it, and no store is deployed unapproved (property)', () => {
    const later = ONBOARDING_STEPS.filter((s): s is Exclude<OnboardingStep, 'create'> => s !== 'create');
    const asks = fc.array(
      fc.oneof(
        fc.constantFrom(...later).map((step): StoreLifecycleCommand => ({
          type: 'AdvanceOnboarding',
          step,
          note: step === 'reject' ? 'Blurry logo.' : '',
          now,
        })),
        fc.constant<StoreLifecycleCommand>({ type: 'ActivateStore', now }),
      ),
      { maxLength: 30 },
    );
    fc.assert(
      fc.property(asks, (commands) => {
        let state = created();
        for (const command of commands) {
          const before = state;
          const result = run(state, command);
          if (command.type === 'AdvanceOnboarding') {
            const allowed = NEXT_ONBOARDING_STEPS[before.stage].includes(command.step);
            expect(result.error === null).toBe(allowed);
            if (allowed) expect(result.state!.stage).toBe(STAGE_AFTER_STEP[command.step]);
          } else {
            expect(result.error === null).toBe(before.stage === 'deployed');
            if (result.state!.active) expect(result.state!.stage).toBe('deployed');
          }
          state = result.state!;
          // Every deployment follows an approval, every approval a review.
          state.steps.forEach(({ step }, i) => {
            if (step === 'deploy') expect(state.steps[i - 1]?.step).toBe('approve');
            if (step === 'approve' || step === 'reject') expect(state.steps[i - 1]?.step).toBe('review');
          });
        }
      }),
    );
  });
});
