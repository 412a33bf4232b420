import { z } from 'zod';
import {
  BacktestView,
  RuleActivityList,
  RuleCreatedResponse,
  RuleList,
  RuleVersionList,
  type BacktestRequest,
  type RuleInput,
} from '@claims/contracts';
import { request } from '@claims/ui/http';

const rulesPath = (storeId: string, rest = '') => `stores/${encodeURIComponent(storeId)}/rules${rest}`;
const rulePath = (storeId: string, ruleId: string, rest = '') =>
  rulesPath(storeId, `/${encodeURIComponent(ruleId)}${rest}`);

/** Contract §Automation's calls, as the rules page makes them (with the signed-in session). */
export const automationApi = {
  rules: (storeId: string) => request('GET', rulesPath(storeId), { schema: RuleList }),
  create: (storeId: string, rule: RuleInput) =>
    request('POST', rulesPath(storeId), { body: rule, schema: RuleCreatedResponse }),
  revise: (storeId: string, ruleId: string, rule: RuleInput) =>
    request('PUT', rulePath(storeId, ruleId), { body: rule, schema: RuleCreatedResponse }),
  reorder: (storeId: string, ruleIds: readonly string[]) =>
    request('PUT', rulesPath(storeId, '/order'), { body: { ruleIds }, schema: RuleList }),
  pause: (storeId: string, paused: boolean) =>
    request('PUT', rulesPath(storeId, '/switch'), { body: { paused }, schema: RuleList }),
  versions: (storeId: string, ruleId: string) =>
    request('GET', rulePath(storeId, ruleId, '/versions'), { schema: RuleVersionList }),
  activity: (storeId: string, ruleId: string) =>
    request('GET', rulePath(storeId, ruleId, '/activity'), { schema: RuleActivityList }),
  startBacktest: (storeId: string, body: BacktestRequest) =>
    request('POST', rulesPath(storeId, '/backtests'), { body, schema: z.object({ id: z.uuid() }) }),
  backtest: (storeId: string, backtestId: string) =>
    request('GET', rulesPath(storeId, `/backtests/${encodeURIComponent(backtestId)}`), { schema: BacktestView }),
};
