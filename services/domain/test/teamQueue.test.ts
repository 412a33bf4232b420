import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  ClaimStatus,
  MAX_SAVED_VIEWS_PER_USER,
  type ClaimCommand,
  type DomainEvent,
  type SavedViewCommand,
} from '@claims/contracts';
import {
  claimDecider,
  foldEvents,
  QUEUE_STATUSES,
  queueStatusesFor,
  savedViewsDecider,
  visibleViews,
} from '../src/index.js';
import { claimId, filing, NOW } from './fixtures.js';
import { given, refused } from './support/givenWhenThen.js';

const riley = { id: '5f0c3d1e-2b4a-4c6d-8e9f-0a1b2c3d4e5f', name: 'Riley Agent' };
const sam = { id: '6a1d4e2f-3c5b-4d7e-9fa0-1b2c3d4e5f60', name: 'Sam Support' };
const assign = (assignee: typeof riley | null): ClaimCommand => ({ type: 'AssignClaim', claimId, assignee });

describe('assigning a claim', () => {
  it('given a claim, when it is given to a teammate, then to another and back to nobody, each change names who had it', () => {
    const toRiley = given(claimDecider, filing)
      .when(assign(riley))
      .then([{ type: 'ClaimAssigned', data: { claimId, assignee: riley, previous: null } }]);
    const atRiley = [...filing, ...toRiley];
    expect(given(claimDecider, atRiley).state?.assignee).toEqual(riley);
    const toSam = given(claimDecider, atRiley)
      .when(assign(sam))
      .then([{ type: 'ClaimAssigned', data: { claimId, assignee: sam, previous: riley } }]);
    given(claimDecider, [...atRiley, ...toSam])
      .when(assign(null))
      .then([{ type: 'ClaimAssigned', data: { claimId, assignee: null, previous: sam } }]);
  });

  it('changes nothing when the claim is already with that person (or with nobody)', () => {
    given(claimDecider, filing).when(assign(null)).then([]);
    const atRiley = [
      ...filing,
      { type: 'ClaimAssigned', data: { claimId, assignee: riley, previous: null } } satisfies DomainEvent,
    ];
    given(claimDecider, atRiley)
      .when(assign({ ...riley, name: 'Riley (renamed)' }))
      .then([]);
  });

  it('refuses a claim that does not exist', () => {
    given(claimDecider).when(assign(riley)).then(refused('claim_not_found'));
  });
});

describe("the queue's status tabs", () => {
  it("list every status once, in workflow order, and hide only Order Protection's own queue from merchants", () => {
    expect(QUEUE_STATUSES.map((s) => s.status).sort()).toEqual([...ClaimStatus.options].sort());
    expect(queueStatusesFor(true)).toHaveLength(ClaimStatus.options.length);
    expect(queueStatusesFor(false)).toEqual(queueStatusesFor(true).filter((s) => s !== 'WAITING_FOR_OP'));
    expect(queueStatusesFor(true).slice(0, 2)).toEqual(['NEW', 'OPEN']);
    expect(queueStatusesFor(true).at(-1)).toBe('ARCHIVED');
  });
});

const VIEW_IDS = [
  '81111111-1111-4111-8111-111111111111',
  '82222222-2222-4222-8222-222222222222',
  '83333333-3333-4333-8333-333333333333',
] as const;
const create = (viewId: string, owner: typeof riley, name: string, shared = false): SavedViewCommand => ({
  type: 'CreateSavedView',
  team: 'staff',
  viewId,
  owner,
  view: { name, filters: { status: 'NEW', sort: 'value' }, shared },
  now: NOW,
});

describe('saved views of a team', () => {
  it("keeps each person's views, shows teammates only the shared ones, and lets only the owner change or delete one", () => {
    const first = given(savedViewsDecider)
      .when(create(VIEW_IDS[0], riley, 'New by value', true))
      .thenMatches([{ type: 'SavedViewCreated' }]);
    const second = given(savedViewsDecider, first)
      .when(create(VIEW_IDS[1], riley, 'Mine only'))
      .thenMatches([{ type: 'SavedViewCreated' }]);
    const history = [...first, ...second];
    const state = foldEvents(savedViewsDecider, history);
    expect(visibleViews(state, riley.id).map((v) => v.name)).toEqual(['New by value', 'Mine only']);
    expect(visibleViews(state, sam.id).map((v) => v.name)).toEqual(['New by value']);

    const rename: SavedViewCommand = {
      type: 'UpdateSavedView',
      viewId: VIEW_IDS[0],
      actorId: sam.id,
      view: { name: 'Hijacked', filters: {}, shared: true },
      now: NOW,
    };
    given(savedViewsDecider, history).when(rename).then(refused('forbidden', 'Only Riley Agent'));
    given(savedViewsDecider, history)
      .when({ type: 'DeleteSavedView', viewId: VIEW_IDS[0], actorId: sam.id, now: NOW })
      .then(refused('forbidden'));
    const unshared = given(savedViewsDecider, history)
      .when({
        ...rename,
        actorId: riley.id,
        view: { name: 'New by value', filters: { status: 'NEW', sort: 'value' }, shared: false },
      })
      .thenMatches([{ type: 'SavedViewUpdated', data: { shared: false } }]);
    expect(visibleViews(foldEvents(savedViewsDecider, [...history, ...unshared]), sam.id)).toEqual([]);
    const deleted = given(savedViewsDecider, history)
      .when({ type: 'DeleteSavedView', viewId: VIEW_IDS[1], actorId: riley.id, now: NOW })
      .thenMatches([{ type: 'SavedViewDeleted' }]);
    expect(visibleViews(foldEvents(savedViewsDecider, [...history, ...deleted]), riley.id).map((v) => v.id)).toEqual([
      VIEW_IDS[0],
    ]);
  });

  it('treats saving what a view already holds as no change, in any key order', () => {
    const first = given(savedViewsDecider)
      .when(create(VIEW_IDS[0], riley, 'New by value'))
      .thenMatches([{ type: 'SavedViewCreated' }]);
    given(savedViewsDecider, first)
      .when({
        type: 'UpdateSavedView',
        viewId: VIEW_IDS[0],
        actorId: riley.id,
        view: { shared: false, filters: { sort: 'value', status: 'NEW' }, name: 'New by value' },
        now: NOW,
      })
      .then([]);
  });

  it("refuses a second view of the same owner with the same name (case aside), not a teammate's", () => {
    const first = given(savedViewsDecider)
      .when(create(VIEW_IDS[0], riley, 'Urgent'))
      .thenMatches([{ type: 'SavedViewCreated' }]);
    given(savedViewsDecider, first)
      .when(create(VIEW_IDS[1], riley, 'URGENT'))
      .then(refused('validation_failed', 'already'));
    given(savedViewsDecider, first)
      .when(create(VIEW_IDS[2], sam, 'Urgent'))
      .thenMatches([{ type: 'SavedViewCreated' }]);
    given(savedViewsDecider)
      .when({ type: 'DeleteSavedView', viewId: VIEW_IDS[0], actorId: riley.id, now: NOW })
      .then(refused('not_found'));
  });

  it('keeps at most the limit of views per person, whatever teammates keep (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.boolean(), { minLength: MAX_SAVED_VIEWS_PER_USER, maxLength: MAX_SAVED_VIEWS_PER_USER + 5 }),
        (owners) => {
          let events: DomainEvent[] = [];
          owners.forEach((isRiley, i) => {
            const decided = savedViewsDecider.decide(
              create(`9${String(i).padStart(7, '0')}-1111-4111-8111-111111111111`, isRiley ? riley : sam, `View ${i}`),
              foldEvents(savedViewsDecider, events),
            );
            if (decided.ok) events = [...events, ...decided.value];
          });
          const state = foldEvents(savedViewsDecider, events);
          const rileys = owners.filter(Boolean).length;
          expect(state?.views.filter((v) => v.owner.id === riley.id)).toHaveLength(
            Math.min(rileys, MAX_SAVED_VIEWS_PER_USER),
          );
          expect(state?.views.filter((v) => v.owner.id === sam.id)).toHaveLength(
            Math.min(owners.length - rileys, MAX_SAVED_VIEWS_PER_USER),
          );
        },
      ),
      { numRuns: 20 },
    );
  });
});
