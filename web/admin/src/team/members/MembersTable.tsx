import type { ReactNode } from 'react';
import type { InvitationMailStatus, TeamMember } from '@claims/contracts';
import { formatDateTime } from '@claims/format';
import { Badge } from '../../shared/components/ui.js';
import { DataTable } from '../../shared/components/DataTable.js';

/** A team's members, one row each (name, email, status, roles, actions); `caption` names the team for screen readers. */
export function MembersTable({ caption, children }: { caption: string; children: ReactNode }) {
  return (
    <DataTable caption={caption} captionHidden columns={['Name', 'Email', 'Status', 'Roles', 'Actions']}>
      <tbody>{children}</tbody>
    </DataTable>
  );
}

/** How an invitee's invitation mail went, in a line under their status: the owner sees it was sent, or when it is tried again. */
export function invitationMailText(mail: InvitationMailStatus | null | undefined): string {
  if (!mail) return 'Invitation mail not sent yet';
  if (mail.sent) return `Invitation mailed to ${mail.to} on ${formatDateTime(mail.at)}`;
  const why = `Invitation mail to ${mail.to} failed (${mail.error ?? 'unknown error'})`;
  return mail.nextAttemptAt
    ? `${why}; retrying at ${formatDateTime(mail.nextAttemptAt)}`
    : `${why}; given up after ${mail.attempt} tries`;
}

/** The first four cells of a member's row; the row adds its actions. */
export function MemberCells({ member, self, roles }: { member: TeamMember; self: boolean; roles: string }) {
  return (
    <>
      <th scope="row">
        {member.name}
        {self ? <span className="muted"> (you)</span> : null}
      </th>
      <td>{member.email}</td>
      <td>
        <Badge tone={member.status === 'active' ? 'success' : 'info'}>{member.status}</Badge>
        {member.status === 'invited' ? <p className="hint">{invitationMailText(member.invitationMail)}</p> : null}
      </td>
      <td>{roles}</td>
    </>
  );
}
