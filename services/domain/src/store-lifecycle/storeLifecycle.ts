import {
  NEXT_ONBOARDING_STEPS,
  ONBOARDING_STEP_LABELS,
  ONBOARDING_STAGE_LABELS,
  STAGE_AFTER_STEP,
  type CreateAccount,
  type DomainEvent,
  type OnboardingStage,
  type OnboardingStep,
  type StoreLifecycleCommand,
} from '@claims/contracts';
import type { Decider } from '../decider.js';
import { fail, ok, type Result } from '../result.js';

/** A store created here: its stage of onboarding and whether shoppers reach it. */
export interface StoreLifecycleState {
  storeId: string;
  accountId: string;
  name: string;
  stage: OnboardingStage;
  active: boolean;
  /** Every step taken, oldest first. */
  steps: ReadonlyArray<{ step: OnboardingStep; at: string; note: string }>;
}

export function evolveStoreLifecycle(
  state: StoreLifecycleState | null,
  event: DomainEvent,
): StoreLifecycleState | null {
  switch (event.type) {
    case 'StoreCreated':
      return (
        state ?? {
          storeId: event.data.storeId,
          accountId: event.data.accountId,
          name: event.data.name,
          stage: 'created',
          active: false,
          steps: [{ step: 'create', at: event.data.createdAt, note: '' }],
        }
      );
    case 'StoreOnboardingAdvanced':
      if (!state) return state;
      return {
        ...state,
        stage: STAGE_AFTER_STEP[event.data.step],
        steps: [...state.steps, { step: event.data.step, at: event.data.at, note: event.data.note }],
      };
    case 'StoreActivated':
      return state && { ...state, active: true };
    default:
      return state;
  }
}

/** The steps the store's stage allows next. */
export const nextOnboardingSteps = (state: StoreLifecycleState): readonly OnboardingStep[] =>
  NEXT_ONBOARDING_STEPS[state.stage];

/** A store is activated once deployed: before that, shoppers of its orders find nothing. */
export const activatable = (state: StoreLifecycleState): boolean => state.stage === 'deployed' && !state.active;

export function decideStoreLifecycle(
  command: StoreLifecycleCommand,
  state: StoreLifecycleState | null,
): Result<DomainEvent[]> {
  switch (command.type) {
    case 'CreateStore': {
      if (state) return fail('already_exists', `The store ${state.name} exists already.`);
      const { type: _type, now, ...facts } = command;
      return ok([{ type: 'StoreCreated', data: { ...facts, createdAt: now } }]);
    }
    case 'AdvanceOnboarding': {
      if (!state) return fail('not_found', 'No store created here matches that reference.');
      if (!nextOnboardingSteps(state).includes(command.step)) {
        const allowed = nextOnboardingSteps(state).map((s) => ONBOARDING_STEP_LABELS[s].toLowerCase());
        return fail(
          'invalid_transition',
          `${state.name} is ${ONBOARDING_STAGE_LABELS[state.stage].toLowerCase()}: ` +
            `"${ONBOARDING_STEP_LABELS[command.step].toLowerCase()}" is not a step from there${allowed.length > 0 ? ` (next: ${allowed.join(' or ')})` : ''}.`,
        );
      }
      if (command.step === 'reject' && command.note.trim() === '')
        return fail('validation_failed', 'Say why the store is rejected.');
      return ok([
        {
          type: 'StoreOnboardingAdvanced',
          data: { storeId: state.storeId, step: command.step, note: command.note, at: command.now },
        },
      ]);
    }
    case 'ActivateStore':
      if (!state) return fail('not_found', 'No store created here matches that reference.');
      if (state.active) return ok([]);
      if (!activatable(state))
        return fail(
          'invalid_transition',
          `${state.name} is activated once deployed; it is ${ONBOARDING_STAGE_LABELS[state.stage].toLowerCase()}.`,
        );
      return ok([{ type: 'StoreActivated', data: { storeId: state.storeId, activatedAt: command.now } }]);
    default: {
      const exhaustive: never = command;
      return exhaustive;
    }
  }
}

/** A store created by Order Protection's staff (`store:<storeId>`): its creation, onboarding steps and activation. */
export const storeLifecycleDecider: Decider<StoreLifecycleState | null, StoreLifecycleCommand> = {
  initialState: null,
  evolve: evolveStoreLifecycle,
  decide: decideStoreLifecycle,
};

/** An account created here (`account:<accountId>`): created once. */
export const accountDecider: Decider<{ name: string } | null, CreateAccount> = {
  initialState: null,
  evolve: (state, event) => (event.type === 'AccountCreated' ? (state ?? { name: event.data.name }) : state),
  decide: (command, state) =>
    state
      ? fail('already_exists', `The account ${state.name} exists already.`)
      : ok([
          {
            type: 'AccountCreated',
            data: { accountId: command.accountId, slug: command.slug, name: command.name, createdAt: command.now },
          },
        ]),
};
