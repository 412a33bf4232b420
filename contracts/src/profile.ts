import { z } from 'zod';

/** `PUT /api/auth/profile`: the signed-in user's own name (`user:update`). */
export const UpdateProfileRequest = z.object({ name: z.string().trim().min(1).max(200) });
export type UpdateProfileRequest = z.infer<typeof UpdateProfileRequest>;

/** `POST /api/auth/password`: the current password proves it is the user; the new one is at least 12 characters. */
export const ChangePasswordRequest = z
  .object({
    currentPassword: z.string().min(1).max(1_000),
    newPassword: z.string().min(12, 'Use at least 12 characters.').max(1_000),
  })
  .refine((value) => value.newPassword !== value.currentPassword, {
    message: 'Choose a password other than the current one.',
    path: ['newPassword'],
  });
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequest>;
