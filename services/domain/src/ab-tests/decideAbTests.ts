import {
  StartAbTestRequest,
  type AbTestCommand,
  type AbVariant,
  type AssignAbVariant,
  type DomainEvent,
} from '@claims/contracts';
import type { Decider } from '../decider.js';
import { fail, ok, type Result } from '../result.js';

export interface AbTestDefinition {
  testId: string;
  name: string;
  variants: AbVariant[];
  startedAt: string;
  stoppedAt: string | null;
}

/** A store's tests (`store-ab-tests:{storeId}`), oldest first; at most one running. */
export interface AbTestsState {
  tests: AbTestDefinition[];
}

export const runningTest = (state: AbTestsState): AbTestDefinition | null =>
  state.tests.find((test) => test.stoppedAt === null) ?? null;

export function evolveAbTests(state: AbTestsState, event: DomainEvent): AbTestsState {
  switch (event.type) {
    case 'AbTestStarted':
      return {
        tests: [
          ...state.tests,
          {
            testId: event.data.testId,
            name: event.data.name,
            variants: event.data.variants,
            startedAt: event.data.startedAt,
            stoppedAt: null,
          },
        ],
      };
    case 'AbTestStopped':
      return {
        tests: state.tests.map((test) =>
          test.testId === event.data.testId ? { ...test, stoppedAt: event.data.stoppedAt } : test,
        ),
      };
    default:
      return state;
  }
}

export function decideAbTests(command: AbTestCommand, state: AbTestsState): Result<DomainEvent[]> {
  switch (command.type) {
    case 'StartAbTest': {
      const running = runningTest(state);
      if (running)
        return fail('ab_test_running', `"${running.name}" is still running: stop it before starting another test.`);
      const parsed = StartAbTestRequest.safeParse({ name: command.name, variants: command.variants });
      if (!parsed.success)
        return fail('validation_failed', parsed.error.issues.map((issue) => issue.message).join(' '));
      return ok([
        {
          type: 'AbTestStarted',
          data: {
            storeId: command.storeId,
            testId: command.testId,
            name: parsed.data.name,
            variants: parsed.data.variants,
            startedAt: command.now,
          },
        },
      ]);
    }
    case 'StopAbTest': {
      const test = state.tests.find((t) => t.testId === command.testId);
      if (!test) return fail('not_found', 'No such test in this store.');
      if (test.stoppedAt !== null) return ok([]);
      return ok([
        { type: 'AbTestStopped', data: { storeId: command.storeId, testId: command.testId, stoppedAt: command.now } },
      ]);
    }
    default: {
      const exhaustive: never = command;
      return exhaustive;
    }
  }
}

export const abTestsDecider: Decider<AbTestsState, AbTestCommand> = {
  initialState: { tests: [] },
  evolve: evolveAbTests,
  decide: decideAbTests,
};

/** A claim session's variants (`ab-assignments:{sessionId}`): test id → variant id. */
export type AbAssignmentsState = Readonly<Record<string, string>>;

/** Assigned once per test: asking again (every visit to the offer) records nothing. */
export const abAssignmentsDecider: Decider<AbAssignmentsState, AssignAbVariant> = {
  initialState: {},
  evolve: (state, event) =>
    event.type === 'AbVariantAssigned' ? { ...state, [event.data.testId]: event.data.variantId } : state,
  decide: (command, state) =>
    ok(
      state[command.testId] !== undefined
        ? []
        : [
            {
              type: 'AbVariantAssigned',
              data: {
                storeId: command.storeId,
                testId: command.testId,
                variantId: command.variantId,
                sessionId: command.sessionId,
                orderId: command.orderId,
                assignedAt: command.now,
              },
            },
          ],
    ),
};

/**
 * The variant a claim was offered: the one its session was assigned in the test running when it was filed
 * (a test's variant binds its claims even after the test stops); null outside any test.
 */
export function offeredVariant(
  tests: AbTestsState,
  assignments: AbAssignmentsState,
  filedAt: string,
): AbVariant | null {
  const filed = Date.parse(filedAt);
  for (const test of tests.tests) {
    const variantId = assignments[test.testId];
    const during =
      Date.parse(test.startedAt) <= filed && (test.stoppedAt === null || filed <= Date.parse(test.stoppedAt));
    if (variantId !== undefined && during) return test.variants.find((v) => v.id === variantId) ?? null;
  }
  return null;
}
