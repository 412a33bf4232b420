import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '@claims/event-store';

/**
 * Invitations of team members: the user row exists from the invitation on (with a password hash no
 * password matches); only the SHA-256 of the one-time token is kept, and accepting sets the password.
 * A store team's invitation names its account (and store); the support team's names neither.
 */
export const teamMigrations: Record<string, Migration> = {
  '0710_team_invitations': sqlMigration(
    sql`
      create table team_invitations (
        user_id uuid primary key references users(id) on delete cascade,
        token_hash text not null unique,
        account_id uuid not null references accounts(id) on delete cascade,
        store_id uuid references stores(id) on delete cascade,
        invited_by uuid references users(id) on delete set null,
        created_at timestamptz not null,
        expires_at timestamptz not null,
        accepted_at timestamptz
      )`,
  ),
  // A grant offered to an existing user: it takes effect only when that user accepts it, signed in.
  '0760_team_pending_grants': sqlMigration(
    sql`
      create table team_pending_grants (
        id uuid primary key,
        user_id uuid not null references users(id) on delete cascade,
        account_id uuid not null references accounts(id) on delete cascade,
        store_id uuid not null references stores(id) on delete cascade,
        role text not null,
        invited_by uuid references users(id) on delete set null,
        created_at timestamptz not null,
        expires_at timestamptz not null,
        unique (user_id, store_id)
      )`,
    sql`create index team_pending_grants_expiry on team_pending_grants (expires_at)`,
  ),
  // An invitation to Order Protection's support team names no account or store (its grant is internal).
  '2500_supportusers_internal_invitations': sqlMigration(
    sql`alter table team_invitations alter column account_id drop not null`,
    sql`alter table team_invitations add constraint team_invitations_scope check (account_id is not null or store_id is null)`,
  ),
  // Invitations are mailed by a reaction after the request, each mail with a fresh link: the row names the invitation
  // its event names and holds no token; each link's hash is a row of its own, good while its invitation is open.
  '2600_team_invitations_mailed': sqlMigration(
    sql`alter table team_invitations add column invitation_id uuid`,
    sql`alter table team_invitations alter column token_hash drop not null`,
    sql`
      create table team_invitation_links (
        token_hash text primary key,
        user_id uuid not null references team_invitations(user_id) on delete cascade,
        invitation_id uuid,
        issued_at timestamptz not null
      )`,
    sql`create index team_invitation_links_user on team_invitation_links (user_id)`,
  ),
};
