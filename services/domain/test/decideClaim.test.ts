import { describe, expect, it } from 'vitest';
import type { ClaimCommand, ResolveClaim } from '@claims/contracts';
import { claimDecider } from '../src/index.js';
import { actor, changeStatus, filing, NOW, statusChanged } from './fixtures.js';
import { given, refused } from './support/givenWhenThen.js';

const RES = ['51111111-1111-4111-8111-111111111111', '61111111-1111-4111-8111-111111111111'];
const filed = given(claimDecider, filing);
const claim = filed.state!;
const resolve = (request: ResolveClaim['request']): ClaimCommand => ({ type: 'ResolveClaim', claimId: claim.id, resolutionIds: RES, actor, now: NOW, request });

describe('ResolveClaim', () => {
  it('refunds the claimed socks at their value and resolves the claim', () => {
    filed.when(resolve({ resolutionType: 'REFUND' })).then([{
      type: 'ClaimResolved',
      data: expect.objectContaining({ outcome: 'APPROVED', status: 'RESOLVED', resolutions: [expect.objectContaining({ quantity: 2, percentage: 100, paidValue: 3600 - 200 + 288 })] }),
    }]);
  });

  it('is refused once the claim has a resolution', () => {
    const reshipped = filed.when(resolve({ resolutionType: 'RESHIP' })).thenMatches([{ type: 'ClaimResolved', data: { status: 'RESOLVED' } }]);
    given(claimDecider, [...filing, ...reshipped]).when(resolve({ resolutionType: 'REFUND' })).then(refused('already_resolved'));
  });

  it('denies only with a reason, paying nothing', () => {
    filed.when(resolve({ resolutionType: 'DENY' })).then(refused('validation_failed', 'reason'));
    filed.when(resolve({ resolutionType: 'DENY', reason: 'PHOTO_VERIFIED' }))
      .thenMatches([{ data: { outcome: 'DENIED', status: 'DENIED', resolutions: [{ paidValue: 0, reason: 'PHOTO_VERIFIED' }] } }]);
  });

  it('pays a flat claim-level amount in minor units, and a percentage of an item', () => {
    filed.when(resolve({ resolutionType: 'FLAT_RATE', amount: 12.5 })).thenMatches([{ data: { resolutions: [{ relatedClaimItemId: null, paidValue: 1250 }] } }]);
    filed.when(resolve({ resolutionType: 'REFUND', items: [{ claimItemId: claim.items[0]!.id, quantity: 1, percentage: 50 }] }))
      .thenMatches([{ data: { resolutions: [{ quantity: 1, paidValue: Math.round((1800 - 100 + 144) / 2) }] } }]);
  });

  it('refuses more than was claimed', () => {
    filed.when(resolve({ resolutionType: 'REFUND', items: [{ claimItemId: claim.items[0]!.id, quantity: 3 }] })).then(refused('invalid_quantity'));
  });
});

describe('status changes and messages', () => {
  it('moves along allowed transitions only', () => {
    filed.when(changeStatus('OPEN')).then([statusChanged('NEW', 'OPEN')]);
    given(claimDecider, [...filing, statusChanged('NEW', 'CLOSED'), statusChanged('CLOSED', 'ARCHIVED')]).when(changeStatus('OPEN')).then(refused('invalid_transition'));
  });

  it('strips HTML from messages and refuses an empty one', () => {
    const message = (messageContent: string): ClaimCommand => ({
      type: 'SendMessage', claimId: claim.id, messageId: RES[0]!, actor, senderType: 'merchant', senderName: 'Riley', medias: [], now: NOW, messageContent,
    });
    filed.when(message('<script>x</script><b>Hello</b>')).thenMatches([{ type: 'ClaimMessageSent', data: { messageContent: 'xHello' } }]);
    filed.when(message('<p> </p>')).then(refused('validation_failed'));
  });

  it('takes one review per claim', () => {
    const review = filed.when({ type: 'AddReview', claimId: claim.id, reviewId: RES[0]!, now: NOW, review: { rating: 5, text: 'Fast' } })
      .thenMatches([{ type: 'ClaimReviewed', data: { rating: 5, text: 'Fast' } }]);
    given(claimDecider, [...filing, ...review]).when({ type: 'AddReview', claimId: claim.id, reviewId: RES[1]!, now: NOW, review: { rating: 1, text: '' } })
      .then(refused('validation_failed'));
  });

  it('answers not found for a claim that does not exist', () => {
    given(claimDecider).when({ type: 'ChangeClaimStatus', claimId: RES[0]!, to: 'OPEN', note: null }).then(refused('claim_not_found'));
  });
});
