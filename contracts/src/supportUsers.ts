import { z } from 'zod';
import { InviteMemberRequest } from './backoffice.js';
import { RoleName } from './permissions.js';

/**
 * Order Protection's support staff (docs/product.md#support-staff; `orderprotection_support_admin` manages support members):
 * the two internal roles the support-users page gives and takes. Members are listed as `TeamMember`s and
 * invited with the team's invitation (`InviteMemberResponse`); only the roles differ.
 */
export const SupportRole = RoleName.extract(['orderprotection_support', 'orderprotection_support_admin']);
export type SupportRole = z.infer<typeof SupportRole>;
export const SUPPORT_ROLES = SupportRole.options;
export const SUPPORT_ADMIN_ROLE: SupportRole = 'orderprotection_support_admin';

/** Body of `POST /api/admin/support-users`: a new support member, by email. */
export const InviteSupportUserRequest = InviteMemberRequest.extend({ role: SupportRole });
export type InviteSupportUserRequest = z.infer<typeof InviteSupportUserRequest>;

/** Body of `POST /api/admin/support-users/{userId}/role`. */
export const ChangeSupportRoleRequest = z.object({ role: SupportRole });
export type ChangeSupportRoleRequest = z.infer<typeof ChangeSupportRoleRequest>;
