import { useState } from 'react';
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import type { AdminClaimDetail, MacroResolutionPreset } from '@claims/contracts';
import { formatDateTime } from '@claims/format';
import { isHttpError } from '../shared/api.js';
import { can, useMe } from '../shared/session.js';
import { Alert, Page } from '@claims/ui/components';
import { ProtectionBadge, StatusBadge } from '../shared/components/ui.js';
import { CustomerClaimSection, ItemIssuesSection, ResolutionSections } from './claim/Sections.js';
import { StoreCreditSection } from './claim/StoreCreditSection.js';
import { Timeline } from './claim/Timeline.js';
import { StatusForm } from './claim/Actions.js';
import { Messages } from './claim/Messages.js';
import { DecisionPanel } from './claim/DecisionPanel.js';
import { ClaimFactsPanels } from './claim/ClaimFactsPanels.js';
import { LabelsSection, MacroPicker, MetadataSection, NotesSection } from './claim/DeskTools.js';
import { AssignmentSection } from './claim/AssignmentSection.js';
import { OrderReference } from './order/OrderReference.js';
import { ReviewSection } from './reviews/ReviewSection.js';
import { ReturnsSection } from './returns/ReturnsSection.js';
import { ReferenceMatches } from './ReferenceMatches.js';
import { ClaimDeskBar } from './claim/ClaimDeskBar.js';
import { claimQueries } from './queries.js';
import './claimPage.css';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `/admin/claims/view/$claimRef`: a claim id opens the claim. The back-office link of docs/product.md#merchant-claim-view carries an
 * order instead (`/claims/view/{orderId}`), and an order can have several claims, so any other value
 * is looked up as an order number (or claim number): one match opens it, several are listed.
 */
export function ClaimPage() {
  const { claimRef } = useParams({ from: '/app/claims/view/$claimRef' });
  return UUID.test(claimRef) ? (
    <ClaimView key={claimRef} claimId={claimRef.toLowerCase()} />
  ) : (
    <OrderReference key={claimRef} reference={claimRef} fallback={<OrderClaims reference={claimRef} />} />
  );
}

function OrderClaims({ reference }: { reference: string }) {
  const navigate = useNavigate();
  const found = useQuery(claimQueries.matching(reference));
  return (
    <ReferenceMatches
      found={found}
      reference={reference}
      finding="Finding the claim"
      open={(only) =>
        void navigate({ to: '/claims/view/$claimRef', params: { claimRef: only.id }, search: {}, replace: true })
      }
      list={(claims) => (
        <Page title={claims.length === 0 ? 'Claim not found' : `Claims of order ${reference}`}>
          {claims.length === 0 ? (
            <Alert tone="info">No claim you can see matches {reference}.</Alert>
          ) : (
            <ul className="plain">
              {claims.map((c) => (
                <li key={c.id}>
                  <Link to="/claims/view/$claimRef" params={{ claimRef: c.id }} search={{}}>
                    #{c.claimNumber}
                  </Link>{' '}
                  <StatusBadge status={c.status} /> · filed {formatDateTime(c.createdAt)}
                </li>
              ))}
            </ul>
          )}
          <Link to="/" search={{}}>
            Back to the claims
          </Link>
        </Page>
      )}
    />
  );
}

function ClaimView({ claimId }: { claimId: string }) {
  const me = useMe();
  const navigate = useNavigate();
  const { v } = useSearch({ from: '/app/claims/view/$claimRef' });
  const claim = useQuery(claimQueries.detail(claimId));
  const [notice, setNotice] = useState<string | null>(null);
  // A macro's text or preset: the message box or the resolve form starts over with it (a new key).
  const [reply, setReply] = useState<{ seq: number; text: string }>({ seq: 0, text: '' });
  const [preset, setPreset] = useState<{ seq: number; value: MacroResolutionPreset | null }>({ seq: 0, value: null });
  if (claim.isPending)
    return (
      <Page title="Loading the claim">
        <p role="status">Loading…</p>
      </Page>
    );
  if (claim.isError) {
    const missing = isHttpError(claim.error, 404);
    const page = (
      <Page title={missing ? 'Claim not found' : 'Something went wrong'}>
        <Alert>{missing ? 'No claim you can see has that reference.' : claim.error.message}</Alert>
        <Link to="/" search={{}}>
          Back to the claims
        </Link>
      </Page>
    );
    // No claim has this id: it may be an order's system id (/claims/view/{orderId}, docs/product.md#merchant-claim-view).
    return missing ? <OrderReference reference={claimId} fallback={page} /> : page;
  }
  const data: AdminClaimDetail = claim.data;
  const store = data.storeId;
  const mayResolve = can(me, 'claim:resolve', store) && data.resolvable;
  const mayChangeStatus = can(me, 'claim:update', store) && data.allowedTransitions.length > 0;
  const maySend = can(me, 'message:create', store);
  const mayReadNotes = can(me, 'claim-note:read', store);
  const mayAddNotes = can(me, 'claim-note:create', store);
  const mayAddLabel = can(me, 'label:add', store);
  const mayRemoveLabel = can(me, 'label:remove', store);
  const mayCreateMeta = can(me, 'metadata:create', store);
  const mayUpdateMeta = can(me, 'metadata:update', store);
  const mayStoreMacros = can(me, 'macro:read', store);
  const mayGlobalMacros = can(me, 'global-macro:read', store) && me.grants.some((g) => g.level === 'internal');
  const offerMacros = (mayStoreMacros || mayGlobalMacros) && (maySend || mayResolve);
  return (
    <Page
      title={`Claim #${data.claimNumber}`}
      actions={
        <>
          <Link
            to="/claims/view/$claimRef"
            params={{ claimRef: data.sourceOrderId }}
            search={{}}
            className="button button-link"
          >
            Order {data.orderNumber}
          </Link>
          <Link to="/" search={{}} className="button button-link">
            Back to the claims
          </Link>
        </>
      }
    >
      <div className="claim-head">
        <div className="claim-badges">
          <StatusBadge status={data.status} />
          <span>
            Protection: <ProtectionBadge status={data.protectionStatus} />
          </span>
          <span className="muted">Version {data.version}</span>
        </div>
        <ClaimDeskBar claim={data} canReopen={can(me, 'claim:resolve', store)} onNotice={setNotice} />
      </div>
      <div role="status">{notice ? <p className="alert alert-success">{notice}</p> : null}</div>
      {/* Three blocks, so that one column reads decide → facts → record, and two put the facts beside the other two. */}
      <div className="claim-layout">
        <div className="stack claim-decide">
          <DecisionPanel
            key={`decide-${preset.seq}`}
            claim={data}
            canResolve={mayResolve}
            preset={preset.value}
            onDone={setNotice}
          />
          <AssignmentSection claim={data} me={me.user} canAssign={can(me, 'claim:update', store)} />
          {offerMacros ? (
            <MacroPicker
              claim={data}
              canStore={mayStoreMacros}
              canGlobal={mayGlobalMacros}
              allowReply={maySend}
              allowResolution={mayResolve}
              onRendered={(rendered) => {
                if (rendered.kind === 'reply') setReply((r) => ({ seq: r.seq + 1, text: rendered.body }));
                else setPreset((p) => ({ seq: p.seq + 1, value: rendered.resolution }));
              }}
            />
          ) : null}
          {mayChangeStatus ? <StatusForm claim={data} /> : null}
        </div>
        <div className="stack claim-facts">
          <ItemIssuesSection claim={data} />
          <CustomerClaimSection claim={data} />
          <ClaimFactsPanels claim={data} />
          <Messages key={`messages-${reply.seq}`} claim={data} canSend={maySend} initialText={reply.text} />
          <ResolutionSections claim={data} />
          <StoreCreditSection claim={data} />
          {can(me, 'reviews:read', store) ? <ReviewSection claimId={data.id} /> : null}
          {mayReadNotes || mayAddNotes ? (
            <NotesSection claim={data} canRead={mayReadNotes} canCreate={mayAddNotes} />
          ) : null}
        </div>
        <div className="stack claim-record">
          {can(me, 'label:read', store) || mayAddLabel || mayRemoveLabel ? (
            <LabelsSection claim={data} canAdd={mayAddLabel} canRemove={mayRemoveLabel} />
          ) : null}
          {can(me, 'metadata:read', store) || mayCreateMeta || mayUpdateMeta ? (
            <MetadataSection claim={data} canCreate={mayCreateMeta} canUpdate={mayUpdateMeta} />
          ) : null}
          {can(me, 'returns:read', store) ? (
            <ReturnsSection claimId={data.id} canUpdate={can(me, 'returns:update', store)} />
          ) : null}
          <Timeline
            claim={data}
            selected={v}
            onSelect={(version) =>
              void navigate({
                to: '/claims/view/$claimRef',
                params: { claimRef: claimId },
                search: { v: version },
                replace: true,
              })
            }
          />
        </div>
      </div>
    </Page>
  );
}
