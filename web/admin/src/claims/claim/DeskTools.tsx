import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Label,
  MetadataKey,
  MetadataValue,
  NoteBody,
  type AdminClaimDetail,
  type ClaimTags,
  type MacroView,
  type RenderedMacro,
} from '@claims/contracts';
import { errorText } from '@claims/ui';
import { formatDateTime, pluralize } from '@claims/format';
import { api, isHttpError } from '../../shared/api.js';
import { ToolCard } from '../../shared/components/ui.js';
import { Alert } from '@claims/ui/components';
import { claimQueries } from '../queries.js';
import { macroQueries } from '../../settings/queries.js';
import { FoldingCard } from '../../shared/components/FoldingCard.js';

const failureText = (error: unknown): string =>
  isHttpError(error, 409)
    ? 'This claim changed while you were working on it. Reload it and try again.'
    : errorText(error);

/** After a note, label or metadata change: the claim (labels, metadata, version) and its history follow. */
function useAnnotated(claimId: string) {
  const client = useQueryClient();
  return async (tags?: ClaimTags) => {
    if (tags) {
      client.setQueryData(claimQueries.detail(claimId).queryKey, (old) =>
        old ? { ...old, labels: tags.labels, metadata: tags.metadata, version: tags.version } : old,
      );
    }
    await Promise.all([
      client.invalidateQueries({ queryKey: claimQueries.detail(claimId).queryKey }),
      client.invalidateQueries({ queryKey: claimQueries.timeline(claimId).queryKey }),
      client.invalidateQueries({ queryKey: claimQueries.notes(claimId).queryKey }),
    ]);
  };
}

/** Internal notes: never shown to the shopper. Reading needs claim-note:read, adding claim-note:create. */
export function NotesSection({
  claim,
  canRead,
  canCreate,
}: {
  claim: AdminClaimDetail;
  canRead: boolean;
  canCreate: boolean;
}) {
  const id = useId();
  const annotated = useAnnotated(claim.id);
  const notes = useQuery({ ...claimQueries.notes(claim.id), enabled: canRead });
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const add = useMutation({
    mutationFn: (body: string) => api.addNote(claim.id, body),
    onSuccess: async () => {
      setText('');
      await annotated();
    },
  });
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = NoteBody.safeParse(text);
    if (!parsed.success) {
      setProblem(text.trim() ? 'A note is at most 10,000 characters.' : 'Write the note first.');
      return;
    }
    setProblem(null);
    add.mutate(parsed.data);
  }
  const list = notes.data?.data ?? [];
  return (
    <FoldingCard title="Internal notes" titleId={`${id}-title`} storageKey="claim:internal-notes" defaultOpen>
      <p className="hint">Only your team sees these; the customer never does.</p>
      {canRead ? (
        <>
          {notes.isPending ? <p className="muted">Loading the notes…</p> : null}
          {notes.isError ? <Alert>The notes could not be loaded: {notes.error.message}</Alert> : null}
          {notes.isSuccess && list.length === 0 ? <p className="muted">No notes yet.</p> : null}
          {list.length > 0 ? (
            <ol className="thread" aria-label={`Notes (${pluralize(list.length, 'note')})`}>
              {list.map((note) => (
                <li key={note.id} className="message note">
                  <p className="message-meta">
                    <strong>{note.author.name}</strong> ·{' '}
                    <time dateTime={note.createdAt}>{formatDateTime(note.createdAt)}</time>
                  </p>
                  <p className="note-body">{note.body}</p>
                </li>
              ))}
            </ol>
          ) : null}
        </>
      ) : (
        <p className="muted">{pluralize(claim.noteCount, 'note')}.</p>
      )}
      {canCreate ? (
        <form className="stack" onSubmit={onSubmit} noValidate aria-label="Add an internal note">
          <div className="field">
            <label htmlFor={`${id}-text`}>New internal note</label>
            <textarea
              id={`${id}-text`}
              rows={3}
              maxLength={10_000}
              value={text}
              onChange={(e) => setText(e.target.value)}
            />
          </div>
          {problem ? <Alert>{problem}</Alert> : null}
          {add.isError ? <Alert>{failureText(add.error)}</Alert> : null}
          <div role="status">{add.isSuccess ? <p className="alert alert-success">Note added.</p> : null}</div>
          <div className="actions">
            <button type="submit" className="button button-secondary" disabled={add.isPending}>
              Add note
            </button>
          </div>
        </form>
      ) : null}
    </FoldingCard>
  );
}

/** Labels as chips: add with label:add, remove with label:remove. */
export function LabelsSection({
  claim,
  canAdd,
  canRemove,
}: {
  claim: AdminClaimDetail;
  canAdd: boolean;
  canRemove: boolean;
}) {
  const id = useId();
  const annotated = useAnnotated(claim.id);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const add = useMutation({
    mutationFn: (label: string) => api.addLabel(claim.id, label),
    onSuccess: async (tags, label) => {
      setText('');
      setDone(`Label "${label}" added.`);
      await annotated(tags);
    },
  });
  const remove = useMutation({
    mutationFn: (label: string) => api.removeLabel(claim.id, label),
    onSuccess: async (tags, label) => {
      setDone(`Label "${label}" removed.`);
      await annotated(tags);
      document.getElementById(`${id}-title`)?.focus();
    },
  });
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setDone(null);
    const parsed = Label.safeParse(text);
    if (!parsed.success) {
      setProblem(text.trim() ? 'A label is at most 50 characters.' : 'Type a label first.');
      return;
    }
    setProblem(null);
    add.mutate(parsed.data);
  }
  const error = add.error ?? remove.error;
  return (
    <ToolCard title="Labels" titleId={`${id}-title`}>
      {claim.labels.length === 0 ? (
        <p className="muted">No labels.</p>
      ) : (
        <ul className="chips" aria-label="Labels of this claim">
          {claim.labels.map((label) => (
            <li key={label} className="chip">
              <span>{label}</span>
              {canRemove ? (
                <button
                  type="button"
                  className="chip-remove"
                  onClick={() => {
                    setDone(null);
                    remove.mutate(label);
                  }}
                  disabled={remove.isPending}
                  aria-label={`Remove label ${label}`}
                >
                  <span aria-hidden="true">×</span>
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {canAdd ? (
        <form className="inline-form" onSubmit={onSubmit} noValidate>
          <div className="field">
            <label htmlFor={`${id}-label`}>New label</label>
            <input
              id={`${id}-label`}
              type="text"
              maxLength={50}
              value={text}
              onChange={(e) => setText(e.target.value)}
            />
          </div>
          <button type="submit" className="button button-secondary" disabled={add.isPending}>
            Add label
          </button>
        </form>
      ) : null}
      {problem ? <Alert>{problem}</Alert> : null}
      {error ? <Alert>{failureText(error)}</Alert> : null}
      <p role="status" className="muted">
        {done}
      </p>
    </ToolCard>
  );
}

/** Metadata as a key/value list; setting a new key needs metadata:create, changing one metadata:update. */
export function MetadataSection({
  claim,
  canCreate,
  canUpdate,
}: {
  claim: AdminClaimDetail;
  canCreate: boolean;
  canUpdate: boolean;
}) {
  const id = useId();
  const annotated = useAnnotated(claim.id);
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const set = useMutation({
    mutationFn: ({ k, v }: { k: string; v: string }) => api.setMetadata(claim.id, k, v),
    onSuccess: async (tags, { k }) => {
      setKey('');
      setValue('');
      setDone(`${k} saved.`);
      await annotated(tags);
    },
  });
  const entries = Object.entries(claim.metadata).sort(([a], [b]) => a.localeCompare(b));
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setDone(null);
    const k = MetadataKey.safeParse(key.trim());
    const v = MetadataValue.safeParse(value);
    if (!k.success) {
      setProblem('The key takes letters, digits, _ . - (1 to 64 characters) and may not start with __.');
      return;
    }
    if (!v.success) {
      setProblem('The value is at most 1,000 characters.');
      return;
    }
    const exists = Object.hasOwn(claim.metadata, k.data);
    if (exists && !canUpdate) {
      setProblem(`${k.data} already has a value, and you may not change existing metadata.`);
      return;
    }
    if (!exists && !canCreate) {
      setProblem('You may change existing metadata only: choose one of the keys above.');
      return;
    }
    setProblem(null);
    set.mutate({ k: k.data, v: v.data });
  }
  return (
    <ToolCard title="Metadata">
      {entries.length === 0 ? (
        <p className="muted">No metadata.</p>
      ) : (
        <dl className="facts metadata">
          {entries.map(([k, v]) => (
            <div className="fact" key={k}>
              <dt>{k}</dt>
              <dd>{v || <span className="muted">(empty)</span>}</dd>
            </div>
          ))}
        </dl>
      )}
      {canCreate || canUpdate ? (
        <form className="inline-form" onSubmit={onSubmit} noValidate aria-label="Set a metadata value">
          <div className="field">
            <label htmlFor={`${id}-key`}>Key</label>
            <input
              id={`${id}-key`}
              type="text"
              maxLength={64}
              value={key}
              onChange={(e) => setKey(e.target.value)}
              list={`${id}-keys`}
              autoComplete="off"
            />
            <datalist id={`${id}-keys`}>
              {entries.map(([k]) => (
                <option key={k} value={k} />
              ))}
            </datalist>
          </div>
          <div className="field">
            <label htmlFor={`${id}-value`}>Value</label>
            <input
              id={`${id}-value`}
              type="text"
              maxLength={1_000}
              value={value}
              onChange={(e) => setValue(e.target.value)}
            />
          </div>
          <button type="submit" className="button button-secondary" disabled={set.isPending}>
            Set value
          </button>
        </form>
      ) : null}
      {problem ? <Alert>{problem}</Alert> : null}
      {set.isError ? <Alert>{failureText(set.error)}</Alert> : null}
      <p role="status" className="muted">
        {done}
      </p>
    </ToolCard>
  );
}

/**
 * "Use macro": the store's (and, for Order Protection staff, the global) macros the user can apply
 * here; the server renders the chosen one for this claim, and the caller fills the message box (a reply)
 * or presets the resolve form (a resolution).
 */
export function MacroPicker({
  claim,
  canStore,
  canGlobal,
  allowReply,
  allowResolution,
  onRendered,
}: {
  claim: AdminClaimDetail;
  canStore: boolean;
  canGlobal: boolean;
  allowReply: boolean;
  allowResolution: boolean;
  onRendered: (rendered: RenderedMacro, macro: MacroView) => void;
}) {
  const id = useId();
  const storeMacros = useQuery({ ...macroQueries.of({ scope: 'store', storeId: claim.storeId }), enabled: canStore });
  const globalMacros = useQuery({ ...macroQueries.of({ scope: 'global' }), enabled: canGlobal });
  const [macroId, setMacroId] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const usable = (m: MacroView) => (m.kind === 'reply' ? allowReply : allowResolution);
  const groups = [
    { label: 'Store macros', macros: (storeMacros.data?.data ?? []).filter(usable) },
    { label: 'Global macros', macros: (globalMacros.data?.data ?? []).filter(usable) },
  ].filter((g) => g.macros.length > 0);
  const all = groups.flatMap((g) => g.macros);
  const render = useMutation({
    mutationFn: (macro: MacroView) => api.renderMacro(claim.id, macro.id),
    onSuccess: (rendered, macro) => {
      onRendered(rendered, macro);
      setDone(
        rendered.kind === 'reply'
          ? `"${macro.name}" was put in the message box; review it before sending.`
          : `"${macro.name}" was filled into the resolve form; review it before resolving.`,
      );
    },
  });
  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setDone(null);
    const macro = all.find((m) => m.id === macroId);
    if (!macro) {
      setProblem('Choose a macro first.');
      return;
    }
    setProblem(null);
    render.mutate(macro);
  }
  const loading = (canStore && storeMacros.isPending) || (canGlobal && globalMacros.isPending);
  const loadError = storeMacros.error ?? globalMacros.error;
  return (
    <ToolCard title="Use macro">
      {loading ? <p className="muted">Loading the macros…</p> : null}
      {loadError ? <Alert>The macros could not be loaded: {loadError.message}</Alert> : null}
      {!loading && !loadError && all.length === 0 ? (
        <p className="muted">No macros you can use on this claim.</p>
      ) : null}
      {all.length > 0 ? (
        <form className="inline-form" onSubmit={onSubmit} noValidate>
          <div className="field">
            <label htmlFor={`${id}-macro`}>Macro</label>
            <select id={`${id}-macro`} value={macroId} onChange={(e) => setMacroId(e.target.value)}>
              <option value="">Choose a macro</option>
              {groups.map((g) => (
                <optgroup key={g.label} label={g.label}>
                  {g.macros.map((m) => (
                    <option key={m.id} value={m.id}>
                      {m.name} ({m.kind === 'reply' ? 'reply' : 'resolution'})
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
          </div>
          <button type="submit" className="button button-secondary" disabled={render.isPending}>
            Use macro
          </button>
        </form>
      ) : null}
      {problem ? <Alert>{problem}</Alert> : null}
      {render.isError ? <Alert>{failureText(render.error)}</Alert> : null}
      <p role="status" className="muted">
        {done}
      </p>
    </ToolCard>
  );
}
