import { useId } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { MacroInput, MacroView } from '@claims/contracts';
import { errorText } from '@claims/ui';
import { formatDateTime } from '@claims/format';
import { Alert, ColumnHeads, EmptyState, Skeleton, Table } from '@claims/ui/components';
import { isHttpError } from '../../shared/api.js';
import { Badge } from '../../shared/components/ui.js';
import { deskToolsApi, type MacroOwner } from './deskToolsApi.js';
import { EditDeleteButtons } from './EditDeleteButtons.js';
import { MacroForm } from './MacroForm.js';
import { useListEditing } from './useListEditing.js';
import { ConfirmDelete } from './ConfirmDelete.js';
import { macroQueries } from '../queries.js';

const failureText = (error: unknown) =>
  isHttpError(error, 409)
    ? 'Someone changed this macro while you were editing it. Cancel, look at the new version and try again.'
    : errorText(error);

/** One list of macros (a store's or the global ones) with what the user may do to them. */
export function MacroSection({
  owner,
  title,
  storeName,
  agentName,
  canCreate,
  canUpdate,
  canDelete,
}: {
  owner: MacroOwner;
  title: string;
  storeName: string;
  agentName: string;
  canCreate: boolean;
  canUpdate: boolean;
  canDelete: boolean;
}) {
  const id = useId();
  const macros = useQuery(macroQueries.of(owner));
  const tools = useListEditing<MacroView, MacroInput>({
    queryKey: macroQueries.of(owner).queryKey,
    save: (input, macro) =>
      macro ? deskToolsApi.updateMacro(owner, macro.id, input, macro.version) : deskToolsApi.createMacro(owner, input),
    remove: (macro) => deskToolsApi.deleteMacro(owner, macro.id, macro.version),
    savedNotice: (saved, created) => `Macro "${saved.name}" ${created ? 'created' : 'saved'}.`,
    deletedNotice: (macro) => `Macro "${macro.name}" deleted.`,
    focusAfterDelete: () => document.getElementById(`${id}-title`)?.focus(),
    failureText,
  });
  const { editing, notice, open, askDelete } = tools;
  const list = macros.data?.data ?? [];
  return (
    <section className="stack" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} tabIndex={-1}>
        {title}
      </h2>
      <div role="status">{notice ? <p className="alert alert-success">{notice}</p> : null}</div>
      {macros.isPending ? <Skeleton label="Loading the macros…" /> : null}
      {macros.isError ? <Alert>The macros could not be loaded: {errorText(macros.error)}</Alert> : null}
      {macros.isSuccess && list.length === 0 ? <EmptyState title="No macros yet." /> : null}
      {list.length > 0 ? (
        <Table caption={title} captionHidden className="claims-table">
          <ColumnHeads columns={['Name', 'Kind', 'Text', 'Updated', 'Actions']} />
          <tbody>
            {list.map((macro) => (
              <tr key={macro.id}>
                <th scope="row">{macro.name}</th>
                <td>
                  <Badge tone={macro.kind === 'reply' ? 'neutral' : 'info'}>{macro.kind}</Badge>
                </td>
                <td className="macro-text">{macro.body}</td>
                <td>
                  <time dateTime={macro.updatedAt}>{formatDateTime(macro.updatedAt)}</time>
                </td>
                <td>
                  <div className="row-actions">
                    <EditDeleteButtons
                      name={macro.name}
                      onEdit={canUpdate ? () => open(macro) : null}
                      onDelete={canDelete ? () => askDelete(macro) : null}
                    />
                    {!canUpdate && !canDelete ? <span className="muted">—</span> : null}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      ) : null}
      {canCreate && editing === null ? (
        <div className="actions">
          <button type="button" className="button" onClick={() => open('new')}>
            New macro
          </button>
        </div>
      ) : null}
      {editing !== null ? (
        <MacroForm
          key={editing === 'new' ? 'new' : `${editing.id}-${editing.version}`}
          macro={editing === 'new' ? null : editing}
          storeName={storeName}
          agentName={agentName}
          {...tools.formProps}
        />
      ) : null}
      <ConfirmDelete list={tools} title={(macro) => `Delete macro ${macro.name}?`} confirmLabel="Delete macro">
        <p>Agents can no longer use it. Replies already sent with it stay as they are.</p>
      </ConfirmDelete>
    </section>
  );
}
