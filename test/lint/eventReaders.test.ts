import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  REGISTERED_TYPES,
  undecidedTypes,
  WEBHOOK_SOURCE_TYPES,
  type EventDecisions,
  type EventReader,
} from '@claims/contracts';
import { SHOPPER_MAIL_READER, TEAM_MAIL_READER } from '@claims/domain';
import { PROJECTIONS, webhookOutboxProjection } from '@claims/projections';
import { afterCommitReactions } from '../../services/api/src/runtime.js';
import type { Mailer } from '../../services/api/src/notifications/mailer.js';

const root = path.resolve(import.meta.dirname, '../..');

const unusedMailer: Mailer = {
  send: () => Promise.reject(new Error('no mail is sent here')),
  concurrency: 1,
  close: () => undefined,
};

/** Every reader of the store, by name: the projections, the reactions and the mails they send. */
const READERS: ReadonlyArray<[string, EventReader]> = [
  ...PROJECTIONS.map((p): [string, EventReader] => [`projection ${p.name}`, p]),
  ...afterCommitReactions(unusedMailer).map((r): [string, EventReader] => [`reaction ${r.name}`, r]),
  ['shopper mail', SHOPPER_MAIL_READER],
  ['team mail', TEAM_MAIL_READER],
];

/** The files whose readers read the claim's stream: each must fail to compile when a claim event has no decision. */
const CLAIM_READER_FILES = [
  'services/projections/src/ab-tests/abTestsProjection.ts',
  'services/projections/src/claim-analytics/claimAnalyticsProjection.ts',
  'services/projections/src/claim-assignment/claimAssignmentProjection.ts',
  'services/projections/src/claim-list/claimListProjection.ts',
  'services/projections/src/claim-returns/claimReturnsProjection.ts',
  'services/projections/src/claim-risk/claimRiskProjection.ts',
  'services/projections/src/claim-reviews/claimReviewsProjection.ts',
  'services/projections/src/claim-search/claimSearchProjection.ts',
  'services/projections/src/claim-timeline/claimTimelineProjection.ts',
  'services/projections/src/payout-ledger/payoutLedgerProjection.ts',
  'services/api/src/customer/draftSessions.ts',
  'services/api/src/store-credit/storeCreditLedger.ts',
  'services/api/src/automation/ruleReaction.ts',
  'services/domain/src/notification/claimMail.ts',
];

describe('every reader decides on every event type of the streams it reads', () => {
  it.each(READERS)('%s has a decision on each', (_name, reader) => {
    expect(undecidedTypes(reader)).toEqual([]);
  });

  it('reports a new claim event as undecided by every reader of the claim stream, and by no other', () => {
    const withDummy = [...REGISTERED_TYPES, { type: 'DummyClaimEvent', streamType: 'claim' as const }];
    const undecided = READERS.filter(([, reader]) => undecidedTypes(reader, withDummy).includes('DummyClaimEvent')).map(
      ([name]) => name,
    );
    expect(undecided).toEqual(READERS.filter(([, reader]) => reader.streams.includes('claim')).map(([name]) => name));
    expect(undecided).toContain('projection claim-list');
    expect(undecided).toContain('reaction notify-shopper');
  });

  it('delivers as webhooks exactly the claim events the registry names a webhook for', () => {
    expect([...webhookOutboxProjection.handles].sort()).toEqual([...WEBHOOK_SOURCE_TYPES].sort());
  });

  it('refuses, in the type checker, a decision list that misses a type', () => {
    // @ts-expect-error ClaimFiled (among others) has no decision
    const incomplete: EventDecisions<'claim'> = { ClaimStatusChanged: 'handle' };
    expect(incomplete).toBeDefined();
  });

  // A whole type check of the readers with the registry changed in memory: what a developer adding an event meets.
  it(
    'fails the build of every claim reader, and of the registry line, when a claim event is added without decisions',
    { timeout: 120_000 },
    () => {
      const registryFile = path.join(root, 'contracts/src/events.ts');
      const registry = fs.readFileSync(registryFile, 'utf8');
      const anchor = '  ClaimResolutionReversed: defineEvent(';
      expect(registry).toContain(anchor);
      const changed = registry.replace(
        anchor,
        `  DummyClaimEvent: defineEvent(claimLabelAddedData, claimStream),\n${anchor}`,
      );

      const config = ts.getParsedCommandLineOfConfigFile(
        path.join(root, 'tsconfig.json'),
        {},
        { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
      );
      if (!config) throw new Error('tsconfig.json cannot be read');
      const host = ts.createCompilerHost(config.options);
      const readFile = host.readFile.bind(host);
      host.readFile = (file) => (path.resolve(file) === registryFile ? changed : readFile(file));
      // The modules that add to Fastify's request type come along, as in the whole project's check.
      const roots = [
        ...CLAIM_READER_FILES,
        'services/api/src/auth/authPlugin.ts',
        'services/api/src/http/idempotency.ts',
      ];
      const program = ts.createProgram(
        roots.map((f) => path.join(root, f)),
        config.options,
        host,
      );
      const failing = new Map<string, string>();
      for (const d of ts.getPreEmitDiagnostics(program)) {
        if (d.file)
          failing.set(path.relative(root, d.file.fileName), ts.flattenDiagnosticMessageText(d.messageText, ' '));
      }

      expect([...failing.keys()].sort()).toEqual(['contracts/src/events.ts', ...CLAIM_READER_FILES].sort());
    },
  );
});
