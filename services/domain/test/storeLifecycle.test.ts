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
import { given, refused } from './support/givenWhenThen.js';

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
    const filed = given(storeLifecycleDecider)
      .when(create)
      .thenMatches([{ type: 'StoreCreated' }]);
    const store = given(storeLifecycleDecider, filed);
    expect(store.state).toMatchObject({ stage: 'created', active: false, steps: [{ step: 'create' }] });
    store.when(create).then(refused('already_exists'));
    const createAccount = { type: 'CreateAccount', accountId, slug: 'noord', name: 'Noord', now } as const;
    const account = given(accountDecider)
      .when(createAccount)
      .thenMatches([{ type: 'AccountCreated' }]);
    given(accountDecider, account).when(createAccount).then(refused('already_exists'));
  });

  it('asks a reason for a rejection and activates only a deployed store, once', () => {
    const advance = (step: Exclude<OnboardingStep, 'create'>, note = ''): StoreLifecycleCommand => ({
      type: 'AdvanceOnboarding',
      step,
      note,
      now,
    });
    const activate: StoreLifecycleCommand = { type: 'ActivateStore', now };
    let history = given(storeLifecycleDecider)
      .when(create)
      .thenMatches([{ type: 'StoreCreated' }]);
    given(storeLifecycleDecider, history).when(activate).then(refused('invalid_transition'));
    for (const step of ['brand-create', 'review'] as const)
      history = [...history, ...given(storeLifecycleDecider, history).when(advance(step)).thenMatches([{}])];
    given(storeLifecycleDecider, history).when(advance('reject', ' ')).then(refused('validation_failed'));
    for (const step of ['approve', 'deploy'] as const)
      history = [...history, ...given(storeLifecycleDecider, history).when(advance(step)).thenMatches([{}])];
    const activated = given(storeLifecycleDecider, history)
      .when(activate)
      .thenMatches([{ type: 'StoreActivated' }]);
    given(storeLifecycleDecider, [...history, ...activated])
      .when(activate)
      .then([]);
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
