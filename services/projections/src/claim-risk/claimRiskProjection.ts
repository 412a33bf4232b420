import { readerOf, ignoring } from '@claims/contracts';
import { riskFactsOfFiled, riskOfFiled } from '@claims/domain';
import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import { sqlMigration } from '@claims/event-store';
import { defineProjection } from '../runtime/projection.js';
import { insertNew } from '../runtime/bulkRows.js';

const migrations: Record<string, Migration> = {
  '2800_claim_risk': sqlMigration(
    // One row per claim: its risk for the queue, and what later filings' risk reads (the shopper's history by the
    // keyed hash of their email, never the email; the store's usual claim).
    sql`
      create table claim_risk (
        claim_id uuid primary key,
        store_id uuid not null,
        claim_number text not null,
        shopper_key text,
        claim_value bigint not null,
        store_currency text not null,
        filed_at timestamptz not null,
        level text not null,
        score smallint not null,
        reasons jsonb not null
      )`,
    sql`create index claim_risk_shopper on claim_risk (shopper_key, filed_at) where shopper_key is not null`,
    sql`create index claim_risk_store on claim_risk (store_id, filed_at desc)`,
    // What each rule did (live) or would have done (shadow), per claim.
    sql`
      create table rule_activity (
        rule_id uuid not null,
        claim_id uuid not null,
        mode text not null,
        store_id uuid not null,
        rule_version int not null,
        rule_name text not null,
        claim_number text not null,
        action text not null,
        amount bigint not null,
        currency text not null,
        applied_at timestamptz not null,
        primary key (rule_id, claim_id, mode)
      )`,
    sql`create index rule_activity_claim on rule_activity (claim_id)`,
    sql`create index rule_activity_store on rule_activity (store_id, applied_at desc)`,
  ),
};

/**
 * Risk of every claim (as filing assessed it, or from its event alone for claims filed before risk was recorded) and
 * every rule's activity, from the events: rebuildable like any read model (docs/decisions/automation.md).
 */
export const claimRiskProjection = defineProjection({
  name: 'claim-risk',
  ...readerOf(['claim', 'rule-activity'], {
    ClaimFiled: 'handle',
    ClaimStatusChanged: 'ignore',
    ClaimAssigned: 'ignore',
    RuleApplied: 'handle',
    ...ignoring('decisions', 'conversation', 'deskMarks', 'returns'),
  }),
  migrations,
  tables: ['claim_risk', 'rule_activity'],
  async applyBatch(trx, events) {
    const risks = [];
    const activity = [];
    for (const event of events) {
      if (event.type === 'ClaimFiled') {
        const { data } = event;
        const risk = riskOfFiled(data);
        const facts = riskFactsOfFiled(data);
        risks.push({
          claim_id: data.claimId,
          store_id: data.storeId,
          claim_number: data.claimNumber,
          shopper_key: data.shopperKey ?? null,
          claim_value: facts.claimValue,
          store_currency: facts.storeCurrency,
          filed_at: data.filedAt,
          level: risk.level,
          score: risk.score,
          reasons: risk.reasons,
        });
      } else {
        const { data } = event;
        activity.push({
          rule_id: data.ruleId,
          claim_id: data.claimId,
          mode: data.mode,
          store_id: data.storeId,
          rule_version: data.ruleVersion,
          rule_name: data.ruleName,
          claim_number: data.claimNumber,
          action: data.action,
          amount: data.amount,
          currency: data.currency,
          applied_at: data.appliedAt,
        });
      }
    }
    await insertNew(
      trx,
      'claim_risk',
      risks,
      'claim_id uuid, store_id uuid, claim_number text, shopper_key text, claim_value bigint, store_currency text, filed_at timestamptz, level text, score smallint, reasons jsonb',
      ['claim_id'],
    );
    await insertNew(
      trx,
      'rule_activity',
      activity,
      'rule_id uuid, claim_id uuid, mode text, store_id uuid, rule_version int, rule_name text, claim_number text, action text, amount bigint, currency text, applied_at timestamptz',
      ['rule_id', 'claim_id', 'mode'],
    );
  },
});
