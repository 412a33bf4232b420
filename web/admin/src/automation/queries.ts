import { queryOptions } from '@tanstack/react-query';
import { automationApi } from './automationApi.js';

/** The automation feature's reads, each key written here once: a change invalidates through the same factories. */
export const ruleQueries = {
  /** Everything read about a store's rules: what a saved rule, a new order or the kill switch makes stale. */
  all: (storeId: string) => ['rules', storeId] as const,
  list: (storeId: string) =>
    queryOptions({ queryKey: ['rules', storeId, 'list'], queryFn: () => automationApi.rules(storeId) }),
  versions: (storeId: string, ruleId: string) =>
    queryOptions({
      queryKey: ['rules', storeId, 'versions', ruleId],
      queryFn: () => automationApi.versions(storeId, ruleId),
    }),
  activity: (storeId: string, ruleId: string) =>
    queryOptions({
      queryKey: ['rules', storeId, 'activity', ruleId],
      queryFn: () => automationApi.activity(storeId, ruleId),
    }),
  /** A backtest, read again every half second while it runs. */
  backtest: (storeId: string, backtestId: string) =>
    queryOptions({
      queryKey: ['rules', storeId, 'backtest', backtestId],
      queryFn: () => automationApi.backtest(storeId, backtestId),
      refetchInterval: (query) => (query.state.data?.status === 'running' ? 500 : false),
    }),
};
