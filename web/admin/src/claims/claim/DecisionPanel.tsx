import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useMutation, useQuery } from '@tanstack/react-query';
import {
  RESOLUTION_REASON_LABELS,
  ResolutionReason,
  ResolutionType,
  currencyDecimals,
  reasonsFor,
  toDecimal,
  toMinor,
  type AdminClaimDetail,
  type MacroResolutionPreset,
  type ResolveClaimRequest,
} from '@claims/contracts';
import { decidedItemIds } from '@claims/domain';
import { errorText } from '@claims/ui';
import { formatDateTime, formatItemMoney, formatMoney, pluralize } from '@claims/format';
import { Alert, ColumnHeads } from '@claims/ui/components';
import { api, isHttpError } from '../../shared/api.js';
import { RESOLUTION_TYPE_LABELS, reasonLabel } from '../../shared/labels.js';
import { ConflictAlert, useClaimUpdated } from './Actions.js';
import {
  creditBonus,
  emptyDraft,
  planLines,
  requestOf,
  totalsOf,
  usesAmount,
  usesPercentage,
  usesQuantity,
  type DecisionTerms,
  type ItemDraft,
} from './decisionDraft.js';
import { decisionText, lineSubject } from './decisionText.js';
import { estimateLine } from './resolutionSummary.js';
import './decision.css';
import { claimQueries } from '../queries.js';
import { ProblemList } from '../../shared/components/ProblemList.js';
import { Fact } from '../../shared/components/ui.js';
import { Options } from '../../shared/components/Options.js';

type Claim = AdminClaimDetail;
type Item = Claim['items'][number];

/** Types that may settle the whole claim with one amount (a claim-level line, not tied to an item). */
const WHOLE_CLAIM_TYPES: readonly ResolutionType[] = ['FLAT_RATE', 'CUSTOM', 'STORE_CREDIT'];

/** What the review shows and the confirmation sends. */
interface Plan {
  body: ResolveClaimRequest;
  rows: Array<{
    key: string;
    subject: string;
    type: ResolutionType;
    quantity: number | null;
    value: number;
    bonus: number;
    reason: string | null;
  }>;
  /** Items still undecided once this pass is committed. */
  left: number;
}

/** The decisions already made, item by item, with the amounts issued (a credit with its bonus). */
function DecidedLines({ claim }: { claim: Claim }) {
  if (claim.resolutions.length === 0) return null;
  return (
    <table className="lines decided-lines">
      <caption>Decided</caption>
      <ColumnHeads columns={['Item', 'Decision', 'Reason', 'By']} />
      <tbody>
        {claim.resolutions.map((line) => (
          <tr key={line.id}>
            <th scope="row">{lineSubject(line, claim)}</th>
            <td>{decisionText(line, claim)}</td>
            <td>
              {line.resolutionType !== 'DENY' && line.reason
                ? reasonLabel(line.reason)
                : line.resolutionType === 'DENY'
                  ? ''
                  : '—'}
            </td>
            <td>
              {line.resolvedBy.name || line.resolvedBy.id} ·{' '}
              <time dateTime={line.createdAt}>{formatDateTime(line.createdAt)}</time>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The numbers a decision may take, each asked for when the kind of decision uses it. */
const numberFields = (item: Item, currency: string) =>
  [
    {
      key: 'quantity',
      label: 'Quantity',
      uses: usesQuantity,
      input: { inputMode: 'numeric', min: 1, max: item.quantity, step: 1 },
    },
    {
      key: 'percentage',
      label: 'Percentage',
      uses: usesPercentage,
      input: { inputMode: 'decimal', min: 0, max: 100, step: 'any' },
    },
    {
      key: 'amount',
      label: `Amount (${currency})`,
      uses: usesAmount,
      input: { inputMode: 'decimal', min: 0, step: 1 / 10 ** currencyDecimals(currency) },
    },
  ] as const;

/** One undecided item's decision: its type, then the quantity, share, amount and reason that type takes. */
function ItemDecision({
  item,
  draft,
  offered,
  currency,
  terms,
  onChange,
}: {
  item: Item;
  draft: ItemDraft;
  offered: readonly ResolutionType[];
  currency: string;
  terms: DecisionTerms;
  onChange: (next: ItemDraft) => void;
}) {
  const id = useId();
  const set = (patch: Partial<ItemDraft>) => onChange({ ...draft, ...patch });
  const { type } = draft;
  const quantity = Number(draft.quantity);
  const percentage = usesPercentage(type) ? Number(draft.percentage) : 100;
  const worth =
    usesQuantity(type) && type !== 'RESHIP' && Number.isFinite(quantity) && Number.isFinite(percentage)
      ? estimateLine(item, quantity, percentage, currency)
      : null;
  return (
    <fieldset className="item-decision" aria-label={`${item.name} × ${item.quantity}`}>
      <legend>
        {item.name} × {item.quantity} <span className="muted">({formatItemMoney(item.price, currency)} each)</span>
      </legend>
      <div className="decision-fields">
        <div className="field">
          <label htmlFor={`${id}-type`}>Decision</label>
          <select
            id={`${id}-type`}
            value={type}
            onChange={(e) => {
              const parsed = ResolutionType.safeParse(e.target.value);
              const next = parsed.success ? parsed.data : '';
              // A reason chosen for another kind of decision rarely fits this one.
              set({
                type: next,
                reason: next && reasonsFor(next, '').some((r) => r === draft.reason) ? draft.reason : '',
              });
            }}
          >
            <option value="">Decide later</option>
            <Options values={offered} label={(t) => RESOLUTION_TYPE_LABELS[t]} />
          </select>
        </div>
        {numberFields(item, currency).map(({ key, label, uses, input }) =>
          uses(type) ? (
            <div key={key} className="field">
              <label htmlFor={`${id}-${key}`}>{label}</label>
              <input
                id={`${id}-${key}`}
                className="small-input"
                type="number"
                {...input}
                value={draft[key]}
                onChange={(e) => set({ [key]: e.target.value })}
              />
            </div>
          ) : null,
        )}
        {type ? (
          <div className="field">
            <label htmlFor={`${id}-reason`}>{type === 'DENY' ? 'Reason for denial' : 'Reason (optional)'}</label>
            <select
              id={`${id}-reason`}
              value={draft.reason}
              aria-required={type === 'DENY'}
              onChange={(e) => set({ reason: e.target.value })}
            >
              <option value="">{type === 'DENY' ? 'Choose a reason' : 'No reason'}</option>
              <Options values={reasonsFor(type, draft.reason)} label={(r) => RESOLUTION_REASON_LABELS[r]} />
            </select>
          </div>
        ) : null}
      </div>
      {worth !== null ? (
        <p className="muted decision-worth">
          Worth {formatMoney(worth, currency)}
          {type === 'STORE_CREDIT' ? ` + ${formatMoney(creditBonus(worth, currency, terms), currency)} bonus` : ''}
        </p>
      ) : null}
    </fieldset>
  );
}

/** The review before committing: each line's decision and amount, the totals in the claim's currency, and what is left. */
function Review({
  claim,
  plan,
  pending,
  onBack,
  onConfirm,
}: {
  claim: Claim;
  plan: Plan;
  pending: boolean;
  onBack: () => void;
  onConfirm: () => void;
}) {
  const titleRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => titleRef.current?.focus(), []);
  const money = (value: number) => formatMoney(value, claim.currency);
  const totals = totalsOf(
    plan.rows.map((row) => ({ ...row, quantity: row.quantity ?? 0 })),
    claim.currency,
  );
  const everyDenied =
    plan.left === 0 &&
    [...claim.resolutions.map((r) => r.resolutionType), ...plan.rows.map((r) => r.type)].every((t) => t === 'DENY');
  const confirmLabel =
    plan.left > 0 ? 'Confirm decisions' : everyDenied ? 'Confirm and deny claim' : 'Confirm and resolve claim';
  return (
    <section className="decision-review" aria-labelledby="decision-review-title">
      <h3 id="decision-review-title" ref={titleRef} tabIndex={-1}>
        Review before committing
      </h3>
      <table className="lines">
        <caption>Decisions to commit</caption>
        <ColumnHeads columns={['Item', 'Decision', 'Quantity', 'Amount', 'Reason']} />
        <tbody>
          {plan.rows.map((row) => (
            <tr key={row.key}>
              <th scope="row">{row.subject}</th>
              <td>{RESOLUTION_TYPE_LABELS[row.type]}</td>
              <td>{row.quantity ?? '—'}</td>
              <td>
                {row.type === 'RESHIP' || row.type === 'DENY' ? '—' : money(row.value)}
                {row.type === 'STORE_CREDIT' ? ` + ${money(row.bonus)} bonus` : ''}
              </td>
              <td>{row.reason ? reasonLabel(row.reason) : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl className="facts decision-totals">
        {totals.refund ? <Fact term="Refund">{money(totals.refund)}</Fact> : null}
        {totals.credit ? (
          <Fact term="Store credit">
            {money(totals.credit)} + {money(totals.creditBonus)} bonus = {money(totals.credit + totals.creditBonus)}
          </Fact>
        ) : null}
        {totals.flatRate ? <Fact term="Flat rate">{money(totals.flatRate)}</Fact> : null}
        {totals.custom ? <Fact term="Custom">{money(totals.custom)}</Fact> : null}
        {totals.reshipUnits ? <Fact term="To reship">{pluralize(totals.reshipUnits, 'unit')}</Fact> : null}
        {totals.denied ? <Fact term="Denied">{pluralize(totals.denied, 'item')}</Fact> : null}
        <Fact term="Total to the customer">{money(totals.toCustomer)}</Fact>
      </dl>
      <p>
        {plan.left > 0
          ? `${pluralize(plan.left, 'item')} will still be undecided: the claim stays open until every item is decided.`
          : everyDenied
            ? 'Every item will be decided: the claim will be denied.'
            : 'Every item will be decided: the claim will be resolved.'}
      </p>
      <div className="actions">
        <button type="button" className="button button-primary" disabled={pending} onClick={onConfirm}>
          {pending ? 'Saving…' : confirmLabel}
        </button>
        <button type="button" className="button button-secondary" disabled={pending} onClick={onBack}>
          Edit decisions
        </button>
      </div>
    </section>
  );
}

/** The claim being decided, a macro's preset decision (if one was applied), and what to say once it is committed. */
interface Deciding {
  claim: Claim;
  preset: MacroResolutionPreset | null;
  onDone: (message: string) => void;
}

/**
 * The decision panel at the top of the claim page: what is decided (amounts issued, credit with its bonus), and
 * for an agent allowed to resolve, a decision per undecided item (or one amount for the whole claim), reviewed in
 * a summary before it is committed. Items may be decided over several passes; the claim is resolved with the last.
 */
export function DecisionPanel({ claim, canResolve, preset, onDone }: Deciding & { canResolve: boolean }) {
  const id = useId();
  const open = canResolve && claim.resolvable;
  const facts = useQuery({ ...claimQueries.facts(claim.id), enabled: open });
  if (!open && claim.resolutions.length === 0) return null;
  return (
    <section className="card decision-panel" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{open ? 'Resolve claim' : 'Decisions'}</h2>
      <DecidedLines claim={claim} />
      {open ? (
        facts.isPending ? (
          <p className="muted" role="status">
            Loading the store's terms…
          </p>
        ) : facts.isError ? (
          <Alert>The store's terms could not be loaded: {errorText(facts.error)}</Alert>
        ) : (
          <DecisionForm
            key={`${claim.version}:${preset ? JSON.stringify(preset) : ''}`}
            claim={claim}
            terms={facts.data.decisionTerms}
            preset={preset}
            onDone={onDone}
          />
        )
      ) : null}
    </section>
  );
}

function DecisionForm({ claim, terms, preset, onDone }: Deciding & { terms: DecisionTerms }) {
  const id = useId();
  const updated = useClaimUpdated(claim.id);
  const decided = decidedItemIds(claim);
  const undecided = claim.items.filter((i) => !decided.has(i.id));
  const offered = terms.offeredResolutions;
  const wholeTypes = WHOLE_CLAIM_TYPES.filter((t) => offered.includes(t));
  const presetWhole = preset?.amount !== undefined && wholeTypes.includes(preset.resolutionType);
  const presetType = preset && offered.includes(preset.resolutionType) ? preset.resolutionType : '';
  const [mode, setMode] = useState<'items' | 'claim'>(presetWhole ? 'claim' : 'items');
  const [drafts, setDrafts] = useState<Record<string, ItemDraft>>(() =>
    Object.fromEntries(
      undecided.map((item) => [
        item.id,
        emptyDraft(item, presetWhole ? '' : presetType, presetWhole ? '' : (preset?.reason ?? '')),
      ]),
    ),
  );
  const [wholeType, setWholeType] = useState<ResolutionType>(
    presetWhole ? preset.resolutionType : (wholeTypes[0] ?? 'FLAT_RATE'),
  );
  const [wholeAmount, setWholeAmount] = useState(presetWhole ? String(preset.amount) : '');
  const [wholeReason, setWholeReason] = useState<string>(presetWhole ? (preset.reason ?? '') : '');
  const [description, setDescription] = useState(preset?.description ?? '');
  const [problems, setProblems] = useState<string[]>([]);
  const [plan, setPlan] = useState<Plan | null>(null);
  const resolve = useMutation({
    mutationFn: (body: ResolveClaimRequest) => api.resolve(claim.id, body),
    onSuccess: async (next) => {
      const left = next.items.length - decidedItemIds(next).size;
      onDone(
        next.status === 'DENIED'
          ? `Claim #${next.claimNumber} was denied.`
          : next.status === 'RESOLVED'
            ? `Claim #${next.claimNumber} was resolved.`
            : `Decisions saved on claim #${next.claimNumber}: ${pluralize(left, 'item')} still to decide.`,
      );
      await updated(next);
    },
  });

  function review(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (mode === 'claim') {
      const amount = Number(wholeAmount);
      if (wholeAmount.trim() === '' || !Number.isFinite(amount) || amount <= 0) {
        setProblems(['Enter an amount above 0.']);
        return;
      }
      const value = toDecimal(toMinor(amount, claim.currency), claim.currency);
      const reason = ResolutionReason.safeParse(wholeReason);
      const body: ResolveClaimRequest = {
        resolutionType: wholeType,
        amount: value,
        expectedVersion: claim.version,
        ...(reason.success ? { reason: reason.data } : {}),
        ...(description.trim() ? { description: description.trim() } : {}),
      };
      setProblems([]);
      setPlan({
        body,
        left: 0,
        rows: [
          {
            key: 'claim',
            subject: 'Whole claim',
            type: wholeType,
            quantity: null,
            value,
            bonus: wholeType === 'STORE_CREDIT' ? creditBonus(value, claim.currency, terms) : 0,
            reason: reason.success ? reason.data : null,
          },
        ],
      });
      return;
    }
    const { lines, problems: found } = planLines(undecided, drafts, claim.currency, terms);
    setProblems(found);
    if (found.length > 0) return;
    setPlan({
      body: requestOf(lines, claim.version, description),
      left: undecided.length - lines.length,
      rows: lines.map((l) => ({
        key: l.item.id,
        subject: l.item.name,
        type: l.type,
        quantity: usesQuantity(l.type) ? l.quantity : null,
        value: l.value,
        bonus: l.bonus,
        reason: l.input.reason ?? null,
      })),
    });
  }

  const conflict = isHttpError(resolve.error, 409, 'version_conflict');
  const failure = resolve.isError && !conflict ? <Alert>{errorText(resolve.error)}</Alert> : null;
  const conflictAlert = conflict ? (
    <ConflictAlert
      onReload={() => {
        resolve.reset();
        setPlan(null);
        void updated();
      }}
    />
  ) : null;
  if (plan) {
    return (
      <>
        <Review
          claim={claim}
          plan={plan}
          pending={resolve.isPending}
          onBack={() => {
            resolve.reset();
            setPlan(null);
          }}
          onConfirm={() => resolve.mutate(plan.body)}
        />
        {conflictAlert}
        {failure}
      </>
    );
  }
  return (
    <form className="stack" onSubmit={review} noValidate aria-label="Decisions">
      {wholeTypes.length > 0 ? (
        <fieldset className="field decision-mode">
          <legend>Decide</legend>
          <label className="checkbox">
            <input type="radio" name={`${id}-mode`} checked={mode === 'items'} onChange={() => setMode('items')} /> Item
            by item
          </label>
          <label className="checkbox">
            <input type="radio" name={`${id}-mode`} checked={mode === 'claim'} onChange={() => setMode('claim')} /> One
            amount for the whole claim
          </label>
        </fieldset>
      ) : null}
      {mode === 'items' ? (
        <>
          {undecided.length > 1 ? (
            <div className="field">
              <label htmlFor={`${id}-all`}>Set every undecided item to</label>
              <select
                id={`${id}-all`}
                value=""
                onChange={(e) => {
                  const parsed = ResolutionType.safeParse(e.target.value);
                  if (!parsed.success) return;
                  setDrafts((all) =>
                    Object.fromEntries(
                      Object.entries(all).map(([itemId, d]) => [itemId, { ...d, type: parsed.data, reason: '' }]),
                    ),
                  );
                }}
              >
                <option value="">Choose a decision</option>
                <Options values={offered} label={(t) => RESOLUTION_TYPE_LABELS[t]} />
              </select>
            </div>
          ) : null}
          {undecided.map((item) => (
            <ItemDecision
              key={item.id}
              item={item}
              draft={drafts[item.id] ?? emptyDraft(item)}
              offered={offered}
              currency={claim.currency}
              terms={terms}
              onChange={(next) => setDrafts((all) => ({ ...all, [item.id]: next }))}
            />
          ))}
        </>
      ) : (
        <div className="decision-fields">
          <div className="field">
            <label htmlFor={`${id}-whole-type`}>Resolution type</label>
            <select
              id={`${id}-whole-type`}
              value={wholeType}
              onChange={(e) => {
                setWholeType(ResolutionType.parse(e.target.value));
                setWholeReason('');
              }}
            >
              <Options values={wholeTypes} label={(t) => RESOLUTION_TYPE_LABELS[t]} />
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${id}-whole-amount`}>Amount ({claim.currency})</label>
            <input
              id={`${id}-whole-amount`}
              className="small-input"
              type="number"
              inputMode="decimal"
              min={0}
              step={1 / 10 ** currencyDecimals(claim.currency)}
              value={wholeAmount}
              onChange={(e) => setWholeAmount(e.target.value)}
            />
          </div>
          <div className="field">
            <label htmlFor={`${id}-whole-reason`}>Reason (optional)</label>
            <select id={`${id}-whole-reason`} value={wholeReason} onChange={(e) => setWholeReason(e.target.value)}>
              <option value="">No reason</option>
              <Options values={reasonsFor(wholeType, wholeReason)} label={(r) => RESOLUTION_REASON_LABELS[r]} />
            </select>
          </div>
        </div>
      )}
      <div className="field">
        <label htmlFor={`${id}-note`}>Note (optional)</label>
        <textarea
          id={`${id}-note`}
          rows={2}
          maxLength={2_000}
          value={description}
          onChange={(e) => setDescription(e.target.value)}
        />
      </div>
      <ProblemList problems={problems} />
      {conflictAlert}
      {failure}
      <div className="actions">
        <button type="submit" className="button button-primary">
          Review decision
        </button>
      </div>
    </form>
  );
}
