import type { Claim, DomainEvent } from '@claims/contracts';
import { riskOfFiled } from '../automation/riskAssessment.js';

export type ClaimStateOrNone = Claim | null;

export function evolveClaim(state: ClaimStateOrNone, event: DomainEvent): ClaimStateOrNone {
  switch (event.type) {
    case 'ClaimFiled': {
      const { tokenHash, signature: _signature, filedAt, ...rest } = event.data;
      return {
        id: rest.claimId,
        claimNumber: rest.claimNumber,
        tokenHash,
        storeId: rest.storeId,
        orderId: rest.orderId,
        sourceOrderId: rest.sourceOrderId,
        orderNumber: rest.orderNumber,
        currency: rest.currency,
        isOta: rest.isOta,
        claimType: rest.claimType,
        status: 'NEW',
        customer: rest.customer,
        items: rest.items,
        resolutions: [],
        desiredMethod: rest.desiredMethod,
        updatedShippingAddress: rest.updatedShippingAddress,
        policy: rest.policy,
        filedAt,
        messageCount: 0,
        reviewed: false,
        labels: [],
        metadata: {},
        noteCount: 0,
        assignee: null,
        risk: riskOfFiled(event.data),
      };
    }
    case 'ClaimStatusChanged':
      return state && { ...state, status: event.data.to };
    case 'ClaimResolved':
      return (
        state && { ...state, status: event.data.status, resolutions: [...state.resolutions, ...event.data.resolutions] }
      );
    case 'ClaimResolutionReversed': {
      const reversed = new Set(event.data.lines.map((l) => l.resolutionId));
      return state && { ...state, resolutions: state.resolutions.filter((r) => !reversed.has(r.id)) };
    }
    case 'ClaimMessageSent':
      return state && { ...state, messageCount: state.messageCount + 1 };
    case 'ClaimReviewed':
      return state && { ...state, reviewed: true };
    case 'ClaimNoteAdded':
      return state && { ...state, noteCount: state.noteCount + 1 };
    case 'ClaimLabelAdded':
      return (
        state && {
          ...state,
          labels: state.labels.includes(event.data.label) ? state.labels : [...state.labels, event.data.label],
        }
      );
    case 'ClaimLabelRemoved':
      return state && { ...state, labels: state.labels.filter((l) => l !== event.data.label) };
    case 'ClaimMetadataSet':
      return state && { ...state, metadata: { ...state.metadata, [event.data.key]: event.data.value } };
    case 'ClaimAssigned':
      return state && { ...state, assignee: event.data.assignee };
    default:
      return state;
  }
}
