import { sql } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { EventOf } from '@claims/contracts';
import { riskOfFiled } from '@claims/domain';
import { recordset } from '../runtime/bulkRows.js';

const PAGE = 2_000;

/**
 * The risk of the claims listed before the list carried it (where the event store shares the database), from each
 * claim's ClaimFiled through `riskOfFiled`, the one function every reader of risk uses: claims filed before risk was
 * recorded get theirs from the event alone, as API v1 and the claim page show it. A page at a time, by claim id.
 */
export const claimListRiskBackfill: Migration = {
  async up(db) {
    const { rows: found } = await sql<{ events: string | null }>`select to_regclass('events')::text as events`.execute(
      db,
    );
    if (!found[0]?.events) return;
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const { rows } = await sql<{ claim_id: string; data: EventOf<'ClaimFiled'>['data'] }>`
        select c.claim_id, e.data from claim_list c
          join events e on e.stream_id = c.claim_id::text and e.type = 'ClaimFiled'
        where c.risk_level is null and c.claim_id > ${after}::uuid
        order by c.claim_id limit ${PAGE}`.execute(db);
      if (rows.length === 0) return;
      const risks = rows.map(({ claim_id, data }) => {
        const risk = riskOfFiled(data);
        return { claim_id, risk_level: risk.level, risk_score: risk.score };
      });
      await sql`
        update claim_list c set risk_level = r.risk_level, risk_score = r.risk_score
        from ${recordset(risks, 'claim_id uuid, risk_level text, risk_score smallint')}
        where c.claim_id = r.claim_id`.execute(db);
      after = rows.at(-1)!.claim_id;
    }
  },
};
