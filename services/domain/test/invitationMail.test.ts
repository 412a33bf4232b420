import { describe, expect, it } from 'vitest';
import { invitationMailDecider, latestInvitationMail, type RecordInvitationMail } from '../src/index.js';
import { given } from './support/givenWhenThen.js';

const userId = 'c1111111-1111-4111-8111-111111111111';
const invitation = (n: number) => `d111111${n}-1111-4111-8111-111111111111`;
const now = '2025-03-01T10:00:00.000Z';
const later = '2025-03-01T10:00:01.000Z';

const record = (notificationId: string, outcome: RecordInvitationMail['outcome']): RecordInvitationMail => ({
  type: 'RecordInvitationMail',
  now,
  outcome,
  scope: {
    userId,
    notificationId,
    causedBy: notificationId,
    accountId: null,
    storeId: null,
    to: 'sol@orderprotection.test',
  },
});

describe("an invitee's invitation mail", () => {
  it('counts failed tries and records the mail once sent, never twice', () => {
    const failed = given(invitationMailDecider)
      .when(record(invitation(1), { sent: false, error: 'refused', nextAttemptAt: later }))
      .thenMatches([{ type: 'InvitationMailFailed', data: { attempt: 1, nextAttemptAt: later, error: 'refused' } }]);
    const sent = given(invitationMailDecider, failed)
      .when(record(invitation(1), { sent: true, subject: 'You are invited' }))
      .thenMatches([{ type: 'InvitationMailSent', data: { attempt: 2, subject: 'You are invited' } }]);
    given(invitationMailDecider, [...failed, ...sent])
      .when(record(invitation(1), { sent: true, subject: 'You are invited' }))
      .then([]);
    // A later invitation of the same user is a mail of its own.
    given(invitationMailDecider, [...failed, ...sent])
      .when(record(invitation(2), { sent: true, subject: 'You are invited' }))
      .thenMatches([{ type: 'InvitationMailSent', data: { attempt: 1 } }]);
  });

  it("tells the team's page how the latest try went", () => {
    const failed = given(invitationMailDecider)
      .when(record(invitation(1), { sent: false, error: 'refused', nextAttemptAt: later }))
      .thenMatches([{ type: 'InvitationMailFailed' }]);
    expect(latestInvitationMail([])).toBeNull();
    expect(latestInvitationMail(failed)).toEqual({
      to: 'sol@orderprotection.test',
      sent: false,
      attempt: 1,
      at: now,
      error: 'refused',
      nextAttemptAt: later,
    });
    const sent = given(invitationMailDecider, failed)
      .when(record(invitation(1), { sent: true, subject: 'You are invited' }))
      .thenMatches([{ type: 'InvitationMailSent' }]);
    expect(latestInvitationMail([...failed, ...sent])).toEqual({
      to: 'sol@orderprotection.test',
      sent: true,
      attempt: 2,
      at: now,
      error: null,
      nextAttemptAt: null,
    });
  });
});
