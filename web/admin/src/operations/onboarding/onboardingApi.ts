import {
  AccountList,
  AccountView,
  OnboardingList,
  StoreOnboardingView,
  type CreateAccountRequest,
  type CreateStoreRequest,
  type OnboardingStepRequest,
} from '@claims/contracts';
import { request } from '@claims/ui/http';

const storePath = (storeId: string, rest: string) => `admin/stores/${encodeURIComponent(storeId)}${rest}`;

/** Accounts, stores and their onboarding (`/api/admin/accounts`, `/api/admin/stores`, `/api/admin/onboarding`). */
export const onboardingApi = {
  accounts: () => request('GET', 'admin/accounts', { schema: AccountList }),
  createAccount: (body: CreateAccountRequest) => request('POST', 'admin/accounts', { body, schema: AccountView }),
  createStore: (body: CreateStoreRequest) => request('POST', 'admin/stores', { body, schema: StoreOnboardingView }),
  list: () => request('GET', 'admin/onboarding', { schema: OnboardingList }),
  step: (storeId: string, body: OnboardingStepRequest & { expectedVersion: number }) =>
    request('POST', storePath(storeId, '/onboarding/steps'), { body, schema: StoreOnboardingView }),
  activate: (storeId: string) =>
    request('POST', storePath(storeId, '/activate'), { body: {}, schema: StoreOnboardingView }),
};
