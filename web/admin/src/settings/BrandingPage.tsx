import { useCallback, useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  BRANDING_PREVIEW_MESSAGE,
  BrandingInput,
  PORTAL_DEFAULT_COLORS,
  PortalDomain,
  type Branding,
  type BrandingColorField,
  type BrandingView,
  type BrandingPreviewMessage,
} from '@claims/contracts';
import { brandingContrast } from '@claims/domain';
import { errorText } from '@claims/ui';
import { formatDateTime } from '@claims/format';
import { Alert, Page } from '@claims/ui/components';
import { can, useMe } from '../shared/session.js';
import { StorePicker } from '../shared/components/StorePicker.js';
import { brandingApi } from './branding/brandingApi.js';
import { brandingQueries } from './queries.js';
import { DataTable } from '../shared/components/DataTable.js';
import { NoStorePage } from '../shared/components/NoStorePage.js';
import { ProblemList } from '../shared/components/ProblemList.js';

const COLOR_FIELDS: ReadonlyArray<{ field: BrandingColorField; label: string; hint: string }> = [
  { field: 'brand700', label: 'Primary colour', hint: 'Buttons, links and selected choices (brand 700).' },
  { field: 'brand800', label: 'Hover colour', hint: 'A button under the pointer (brand 800).' },
  { field: 'brand900', label: 'Darkest colour', hint: 'The store name and notice text (brand 900).' },
  {
    field: 'brand100',
    label: 'Lightest colour',
    hint: "Notices, badges and a chosen option's background (brand 100).",
  },
  { field: 'backgroundColor', label: 'Page background', hint: 'Behind every page.' },
];

/** The portal pages the preview can show: the start page and the claim flow with the built-in sample order. */
const PREVIEW_PAGES = [
  { path: '/start', label: 'Start (order lookup)' },
  { path: '/issues?fake', label: 'Claim flow (sample order)' },
] as const;

/** The branding with one field set, or removed when the editor left it empty. */
function withField<K extends keyof Branding>(
  branding: Branding,
  key: K,
  value: Branding[K] | '' | undefined,
): Branding {
  const next = { ...branding };
  if (value === '' || value === undefined) delete next[key];
  else next[key] = value;
  return next;
}

function withEntry(
  record: Record<string, string> | undefined,
  key: string,
  value: string,
): Record<string, string> | undefined {
  const next = { ...record };
  if (value.trim() === '') delete next[key];
  else next[key] = value.trim();
  return Object.keys(next).length > 0 ? next : undefined;
}

function Field({ id, label, hint, children }: { id: string; label: string; hint?: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {hint ? (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** Each text colour pair of the portal under the draft, with its ratio against WCAG AA. */
function ContrastTable({ branding }: { branding: Branding }) {
  const checks = brandingContrast(branding);
  return (
    <DataTable caption="Contrast of the portal's text (WCAG AA needs 4.5:1)" columns={['Where', 'Colours', 'Ratio']}>
      <tbody>
        {checks.map((check) => (
          <tr key={check.id}>
            <th scope="row">{check.label}</th>
            <td>
              {check.foreground} on {check.background}
            </td>
            <td>
              {check.ratio.toFixed(2)}:1{' '}
              {check.passes ? (
                <span className="badge badge-success">Passes AA</span>
              ) : (
                <span className="badge badge-danger">Below AA</span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </DataTable>
  );
}

/** The real portal in a frame, sent every change of the draft (postMessage to this same origin). */
function PortalPreview({ storeId, storeName, branding }: { storeId: string; storeName: string; branding: Branding }) {
  const id = useId();
  const frame = useRef<HTMLIFrameElement>(null);
  const [page, setPage] = useState<string>(PREVIEW_PAGES[0].path);
  const send = useCallback(() => {
    const message: BrandingPreviewMessage = { type: BRANDING_PREVIEW_MESSAGE, storeName, branding };
    frame.current?.contentWindow?.postMessage(message, window.location.origin);
  }, [storeName, branding]);
  useEffect(send, [send]);
  // The frame says when it listens (after each load, or a navigation inside it): it gets the draft at once.
  useEffect(() => {
    const onMessage = (event: MessageEvent<unknown>) => {
      const ready =
        event.origin === window.location.origin &&
        event.source === frame.current?.contentWindow &&
        typeof event.data === 'object' &&
        event.data !== null &&
        (event.data as { type?: unknown }).type === `${BRANDING_PREVIEW_MESSAGE}:ready`;
      if (ready) send();
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [send]);
  const separator = page.includes('?') ? '&' : '?';
  const src = `${page}${separator}store=${encodeURIComponent(storeId)}&preview=branding`;
  return (
    <section className="card stack branding-preview" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Preview</h2>
      <div className="field field-inline">
        <label htmlFor={`${id}-page`}>Portal page</label>
        <select id={`${id}-page`} value={page} onChange={(e) => setPage(e.target.value)}>
          {PREVIEW_PAGES.map((p) => (
            <option key={p.path} value={p.path}>
              {p.label}
            </option>
          ))}
        </select>
      </div>
      <p className="hint">The shopper's portal with your unsaved changes; nothing is saved until you save.</p>
      <iframe ref={frame} key={src} src={src} title="Portal preview" className="branding-frame" onLoad={send} />
    </section>
  );
}

/** Every branding field (docs/product.md#branding), a contrast check of the draft, and save. */
function BrandingForm({
  view,
  editable,
  onDraft,
  onSaved,
}: {
  view: BrandingView;
  editable: boolean;
  onDraft: (branding: Branding) => void;
  onSaved: (message: string) => void;
}) {
  const id = useId();
  const client = useQueryClient();
  const [draft, setDraftState] = useState<Branding>(view.branding);
  const [problems, setProblems] = useState<string[]>([]);
  const setDraft = (next: Branding) => {
    setDraftState(next);
    onDraft(next);
  };
  const save = useMutation({
    mutationFn: (branding: Branding) => brandingApi.saveBranding(view.storeId, branding, view.version),
    onSuccess: async () => {
      onSaved('Branding saved.');
      await client.invalidateQueries({ queryKey: brandingQueries.branding(view.storeId).queryKey });
    },
  });
  const font = draft.fontFiles?.[0];
  const setFont = (patch: Partial<{ family: string; url: string; weight: number | undefined }>) => {
    const next = { family: font?.family ?? '', url: font?.url ?? '', weight: font?.weight, ...patch };
    const { weight, ...rest } = next;
    setDraft(
      withField(
        draft,
        'fontFiles',
        next.family.trim() === '' && next.url.trim() === ''
          ? undefined
          : [weight === undefined ? rest : { ...rest, weight }],
      ),
    );
  };
  const number = (value: string) => (value.trim() === '' ? undefined : Number(value));
  const setWidth = (size: 'mobile' | 'desktop', value: string) => {
    const widths = { ...draft.logoWidths };
    const parsed = number(value);
    if (parsed === undefined || Number.isNaN(parsed)) delete widths[size];
    else widths[size] = parsed;
    setDraft(withField(draft, 'logoWidths', Object.keys(widths).length > 0 ? widths : undefined));
  };

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = BrandingInput.safeParse(draft);
    if (!parsed.success) {
      setProblems(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
      return;
    }
    const failing = brandingContrast(parsed.data).filter((check) => !check.passes);
    if (failing.length > 0) {
      setProblems(
        failing.map(
          (check) =>
            `${check.label}: ${check.foreground} on ${check.background} is ${check.ratio.toFixed(2)}:1, below the 4.5:1 of WCAG AA.`,
        ),
      );
      return;
    }
    setProblems([]);
    save.mutate(parsed.data);
  }

  const f = (name: string) => `${id}-${name}`;
  return (
    <form className="stack" onSubmit={onSubmit} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="visually-hidden">
        Branding fields
      </h2>
      <fieldset className="card stack" disabled={!editable}>
        <legend>Colours</legend>
        <div className="form-grid">
          {COLOR_FIELDS.map(({ field, label, hint }) => (
            <Field key={field} id={f(field)} label={label} hint={hint}>
              <div className="color-field">
                <input
                  id={f(field)}
                  type="color"
                  value={(draft[field] ?? PORTAL_DEFAULT_COLORS[field]).toLowerCase()}
                  aria-describedby={`${f(field)}-hint`}
                  onChange={(e) => setDraft(withField(draft, field, e.target.value))}
                />
                <output htmlFor={f(field)}>{draft[field] ?? `${PORTAL_DEFAULT_COLORS[field]} (default)`}</output>
              </div>
            </Field>
          ))}
        </div>
        <ContrastTable branding={draft} />
      </fieldset>
      <fieldset className="card stack" disabled={!editable}>
        <legend>Logo and background</legend>
        <div className="form-grid">
          <Field id={f('logo')} label="Logo address" hint="A path on this site (/brand/logo.svg) or an https address.">
            <input
              id={f('logo')}
              type="text"
              value={draft.logoUrl ?? ''}
              aria-describedby={`${f('logo')}-hint`}
              onChange={(e) => setDraft(withField(draft, 'logoUrl', e.target.value))}
            />
          </Field>
          <Field
            id={f('bg-image')}
            label="Background image address"
            hint="Optional; covers the page behind the content."
          >
            <input
              id={f('bg-image')}
              type="text"
              value={draft.backgroundImage ?? ''}
              aria-describedby={`${f('bg-image')}-hint`}
              onChange={(e) => setDraft(withField(draft, 'backgroundImage', e.target.value))}
            />
          </Field>
          <Field id={f('logo-mobile')} label="Logo width on phones (px)">
            <input
              id={f('logo-mobile')}
              type="number"
              min={16}
              max={600}
              value={draft.logoWidths?.mobile ?? ''}
              onChange={(e) => setWidth('mobile', e.target.value)}
            />
          </Field>
          <Field id={f('logo-desktop')} label="Logo width on wide screens (px)">
            <input
              id={f('logo-desktop')}
              type="number"
              min={16}
              max={600}
              value={draft.logoWidths?.desktop ?? ''}
              onChange={(e) => setWidth('desktop', e.target.value)}
            />
          </Field>
        </div>
      </fieldset>
      <fieldset className="card stack" disabled={!editable}>
        <legend>Type</legend>
        <div className="form-grid">
          <Field id={f('font-family')} label="Font family" hint="The family name of the font file below.">
            <input
              id={f('font-family')}
              type="text"
              value={font?.family ?? ''}
              aria-describedby={`${f('font-family')}-hint`}
              onChange={(e) => setFont({ family: e.target.value })}
            />
          </Field>
          <Field
            id={f('font-url')}
            label="Font file address"
            hint="A .woff2 file on this site, e.g. /brand/font.woff2."
          >
            <input
              id={f('font-url')}
              type="text"
              value={font?.url ?? ''}
              aria-describedby={`${f('font-url')}-hint`}
              onChange={(e) => setFont({ url: e.target.value })}
            />
          </Field>
          <Field id={f('font-weight')} label="Font weight">
            <input
              id={f('font-weight')}
              type="number"
              min={100}
              max={900}
              step={100}
              value={font?.weight ?? ''}
              onChange={(e) => setFont({ weight: number(e.target.value) })}
            />
          </Field>
          <Field id={f('h1')} label="Main headline size" hint="11px to 30px, e.g. 28px or 1.75rem.">
            <input
              id={f('h1')}
              type="text"
              value={draft.headlineFontSizes?.h1 ?? ''}
              aria-describedby={`${f('h1')}-hint`}
              onChange={(e) =>
                setDraft(
                  withField(draft, 'headlineFontSizes', withEntry(draft.headlineFontSizes, 'h1', e.target.value)),
                )
              }
            />
          </Field>
          <Field id={f('h2')} label="Section headline size">
            <input
              id={f('h2')}
              type="text"
              value={draft.headlineFontSizes?.h2 ?? ''}
              onChange={(e) =>
                setDraft(
                  withField(draft, 'headlineFontSizes', withEntry(draft.headlineFontSizes, 'h2', e.target.value)),
                )
              }
            />
          </Field>
          <Field id={f('lh1')} label="Main headline line height" hint="e.g. 1.2 or 36px.">
            <input
              id={f('lh1')}
              type="text"
              value={draft.lineHeights?.h1 ?? ''}
              aria-describedby={`${f('lh1')}-hint`}
              onChange={(e) =>
                setDraft(withField(draft, 'lineHeights', withEntry(draft.lineHeights, 'h1', e.target.value)))
              }
            />
          </Field>
          <Field id={f('lh2')} label="Section headline line height">
            <input
              id={f('lh2')}
              type="text"
              value={draft.lineHeights?.h2 ?? ''}
              onChange={(e) =>
                setDraft(withField(draft, 'lineHeights', withEntry(draft.lineHeights, 'h2', e.target.value)))
              }
            />
          </Field>
          <Field id={f('spacing')} label="Headline letter spacing" hint="e.g. 0.02em or 1px.">
            <input
              id={f('spacing')}
              type="text"
              value={draft.letterSpacing ?? ''}
              aria-describedby={`${f('spacing')}-hint`}
              onChange={(e) => setDraft(withField(draft, 'letterSpacing', e.target.value))}
            />
          </Field>
          <Field id={f('transform')} label="Headline text transform">
            <select
              id={f('transform')}
              value={draft.textTransform ?? ''}
              onChange={(e) =>
                setDraft(
                  withField(
                    draft,
                    'textTransform',
                    BrandingInput.shape.textTransform.parse(e.target.value || undefined),
                  ),
                )
              }
            >
              <option value="">As written</option>
              <option value="uppercase">UPPERCASE</option>
              <option value="lowercase">lowercase</option>
              <option value="capitalize">Capitalize Each Word</option>
              <option value="none">None</option>
            </select>
          </Field>
          <Field id={f('button')} label="Button style">
            <select
              id={f('button')}
              value={draft.buttonStyle ?? ''}
              onChange={(e) =>
                setDraft(
                  withField(draft, 'buttonStyle', BrandingInput.shape.buttonStyle.parse(e.target.value || undefined)),
                )
              }
            >
              <option value="">Default (rounded)</option>
              <option value="ROUNDED">Rounded (6px)</option>
              <option value="ROUNDED_FULL">Pill (fully rounded)</option>
              <option value="SQUARE">Square</option>
            </select>
          </Field>
        </div>
      </fieldset>
      <ProblemList problems={problems} lead="Not saved:" bulleted />
      {save.isError ? <Alert>{errorText(save.error)}</Alert> : null}
      {editable ? (
        <div className="actions">
          <button type="submit" className="button button-primary" disabled={save.isPending}>
            Save branding
          </button>
          <button
            type="button"
            className="button button-secondary"
            onClick={() => {
              setProblems([]);
              setDraft(view.branding);
            }}
          >
            Discard changes
          </button>
        </div>
      ) : (
        <p className="hint">You may look; changing the branding needs branding:update.</p>
      )}
    </form>
  );
}

/** The store's custom portal domain (whitelabel) and the restart of its white label. */
function WhitelabelSection({
  view,
  mayUpdate,
  mayRestart,
  onSaved,
}: {
  view: BrandingView;
  mayUpdate: boolean;
  mayRestart: boolean;
  onSaved: (message: string) => void;
}) {
  const id = useId();
  const client = useQueryClient();
  const [domain, setDomain] = useState(view.domain ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: brandingQueries.branding(view.storeId).queryKey });
  const save = useMutation({
    mutationFn: (next: string | null) => brandingApi.setDomain(view.storeId, next, view.version),
    onSuccess: async (_, next) => {
      onSaved(next ? `The portal is served on ${next}.` : 'Custom domain removed.');
      await refresh();
    },
  });
  const restart = useMutation({
    mutationFn: () => brandingApi.restartWhitelabel(view.storeId),
    onSuccess: async () => {
      onSaved('White label restarted: shoppers fetch the logo, background and fonts again.');
      await refresh();
    },
  });
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (domain.trim() === '') {
      setProblem(null);
      save.mutate(null);
      return;
    }
    const parsed = PortalDomain.safeParse(domain);
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? 'Enter a host name.');
      return;
    }
    setProblem(null);
    save.mutate(parsed.data);
  }
  return (
    <section className="card stack" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>White label</h2>
      <p className="hint">
        Point the domain's DNS at this service: a shopper opening it gets this store's portal with its branding.
        {view.revision > 0 ? ` Restarted ${view.revision} time${view.revision === 1 ? '' : 's'}.` : ''}
      </p>
      <form className="inline-form" onSubmit={onSubmit} noValidate>
        <div className="field">
          <label htmlFor={`${id}-domain`}>Custom portal domain</label>
          <input
            id={`${id}-domain`}
            type="text"
            value={domain}
            disabled={!mayUpdate}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-domain-error` : undefined}
            onChange={(e) => setDomain(e.target.value)}
            placeholder="claims.example.com"
          />
          {problem ? (
            <p id={`${id}-domain-error`} className="field-error">
              {problem}
            </p>
          ) : null}
        </div>
        {mayUpdate ? (
          <button type="submit" className="button button-primary" disabled={save.isPending}>
            Save domain
          </button>
        ) : null}
        {mayRestart ? (
          <button
            type="button"
            className="button button-secondary"
            disabled={restart.isPending}
            onClick={() => restart.mutate()}
          >
            Restart white label
          </button>
        ) : null}
      </form>
      {save.isError ? <Alert>{errorText(save.error)}</Alert> : null}
      {restart.isError ? <Alert>{errorText(restart.error)}</Alert> : null}
    </section>
  );
}

function BrandingHistory({ view }: { view: BrandingView }) {
  const id = useId();
  return (
    <section className="card stack" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Versions ({view.history.length})</h2>
      {view.history.length === 0 ? (
        <p className="muted">No change yet: the branding is the store's first one.</p>
      ) : (
        <ol className="plain stack">
          {view.history.map((entry) => (
            <li key={entry.version}>
              <p className="hint">
                Version {entry.version} · <time dateTime={entry.at}>{formatDateTime(entry.at)}</time> ·{' '}
                {entry.actor.name ?? entry.actor.id}
              </p>
              <p>{entry.summary}</p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** `/admin/branding`: the branding editor beside a live preview of the real portal, and the white label. */
export function BrandingPage() {
  const me = useMe();
  const navigate = useNavigate();
  const search = useSearch({ from: '/app/branding' });
  const stores = me.stores.filter((s) => s.permissions.includes('branding:read'));
  const store = stores.find((s) => s.id === search.store) ?? stores[0];
  const storeId = store?.id ?? '';
  const branding = useQuery({ ...brandingQueries.branding(storeId), enabled: Boolean(store) });
  const [draft, setDraft] = useState<Branding | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  if (!store) return <NoStorePage title="Branding" what="branding" />;
  const view = branding.data;
  return (
    <Page title={`Branding of ${store.name}`}>
      <StorePicker
        stores={stores}
        value={storeId}
        onChange={(next) => {
          setNotice(null);
          setDraft(null);
          void navigate({ to: '/branding', search: { store: next } });
        }}
      />
      <div role="status">{notice ? <p className="alert alert-success">{notice}</p> : null}</div>
      {branding.isPending ? (
        <p role="status" className="muted">
          Loading the branding…
        </p>
      ) : null}
      {branding.isError ? <Alert>The branding could not be loaded: {errorText(branding.error)}</Alert> : null}
      {view ? (
        <div className="branding-layout">
          <div className="stack">
            <BrandingForm
              key={`${view.storeId}:${view.version}`}
              view={view}
              editable={can(me, 'branding:update', storeId)}
              onDraft={setDraft}
              onSaved={(message) => {
                setNotice(message);
                setDraft(null);
              }}
            />
            {can(me, 'whitelabel:read', storeId) ? (
              <WhitelabelSection
                key={`${view.storeId}:${view.version}:wl`}
                view={view}
                mayUpdate={can(me, 'whitelabel:update', storeId)}
                mayRestart={can(me, 'whitelabel:restart', storeId)}
                onSaved={setNotice}
              />
            ) : null}
            <BrandingHistory view={view} />
          </div>
          <PortalPreview storeId={storeId} storeName={store.name} branding={draft ?? view.branding} />
        </div>
      ) : null}
    </Page>
  );
}
