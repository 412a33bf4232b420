import {
  AbTestsResponse,
  BrandingView,
  WhitelabelListResponse,
  type Branding,
  type StartAbTestRequest,
} from '@claims/contracts';
import { request } from '@claims/ui/http';

const storePath = (storeId: string, rest: string) => `admin/stores/${encodeURIComponent(storeId)}${rest}`;

/** The branding editor's, white label's and A/B tests' calls (kept beside their pages). */
export const brandingApi = {
  branding: (storeId: string) => request('GET', storePath(storeId, '/branding'), { schema: BrandingView }),
  saveBranding: (storeId: string, branding: Branding, expectedVersion: number) =>
    request('PUT', storePath(storeId, '/branding'), { body: { branding, expectedVersion }, schema: BrandingView }),
  setDomain: (storeId: string, domain: string | null, expectedVersion: number) =>
    request('PUT', storePath(storeId, '/whitelabel'), { body: { domain, expectedVersion }, schema: BrandingView }),
  restartWhitelabel: (storeId: string) =>
    request('POST', storePath(storeId, '/whitelabel/restart'), { schema: BrandingView }),
  whitelabelList: () => request('GET', 'admin/whitelabel', { schema: WhitelabelListResponse }),
  abTests: (storeId: string) => request('GET', storePath(storeId, '/ab-tests'), { schema: AbTestsResponse }),
  startAbTest: (storeId: string, body: StartAbTestRequest) =>
    request('POST', storePath(storeId, '/ab-tests'), { body, schema: AbTestsResponse }),
  stopAbTest: (storeId: string, testId: string) =>
    request('POST', storePath(storeId, `/ab-tests/${encodeURIComponent(testId)}/stop`), { schema: AbTestsResponse }),
};
