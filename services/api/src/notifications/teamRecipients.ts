import { notificationPreferencesStreamOf, type Store, type TeamNotificationKind } from '@claims/contracts';
import { memberGetsMail, memberPreferencesDecider } from '@claims/domain';
import type { AppContext } from '../context.js';
import { loadAggregate } from '../eventsourcing/commandHandler.js';
import { listMembers } from '../team/index.js';

/** A team member a mail goes to. */
export interface TeamRecipient {
  userId: string;
  email: string;
  name: string;
}

/**
 * The store's members who get this mail now: active members (not invitees) whose grants reach the store, by their
 * own choice or their roles' default (`memberGetsMail`). Order Protection staff are no store's members.
 */
export async function teamRecipients(
  ctx: AppContext,
  store: Store,
  kind: TeamNotificationKind,
  onlyUserId?: string,
): Promise<TeamRecipient[]> {
  const members = await listMembers(ctx.database.db, store, onlyUserId);
  const preferences = await loadAggregate(ctx, memberPreferencesDecider, notificationPreferencesStreamOf(store.id));
  return members
    .filter(
      (m) =>
        m.status === 'active' &&
        memberGetsMail(
          preferences.state,
          m.userId,
          m.grants.map((g) => g.role),
          kind,
        ),
    )
    .map((m) => ({ userId: m.userId, email: m.email, name: m.name }));
}
