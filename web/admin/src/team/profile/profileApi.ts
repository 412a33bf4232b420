import { z } from 'zod';
import { MeResponse, type ChangePasswordRequest, type UpdateProfileRequest } from '@claims/contracts';
import { request } from '@claims/ui/http';

/** The signed-in user's own name and password (`/api/auth/profile`, `/api/auth/password`). */
export const profileApi = {
  updateProfile: (body: UpdateProfileRequest) => request('PUT', 'auth/profile', { body, schema: MeResponse }),
  changePassword: (body: ChangePasswordRequest) => request('POST', 'auth/password', { body, schema: z.null() }),
};
