import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ProjectionRebuild } from '@claims/contracts';
import { formatDateTime } from '@claims/format';
import { api, isHttpError } from '../../shared/api.js';
import { operationsQueries } from '../queries.js';

const errorText = (error: unknown) =>
  isHttpError(error) || error instanceof Error ? error.message : 'Something went wrong. Try again.';

/** What the last rebuild came to, or how far the running one is. */
function RebuildState({ name, rebuild }: { name: string; rebuild: ProjectionRebuild | null }) {
  if (!rebuild) return <p className="hint">Never rebuilt.</p>;
  switch (rebuild.status) {
    case 'running':
      return (
        <>
          <progress aria-label={`Rebuild of ${name}`} value={rebuild.done} max={Math.max(rebuild.total, 1)} />
          <p className="hint">
            Rebuilding beside the live version: {rebuild.done} of {rebuild.total} events. Queries read the live version
            until the switch.
          </p>
        </>
      );
    case 'done':
      return (
        <p className="hint">
          Rebuilt{' '}
          <time dateTime={rebuild.finishedAt ?? rebuild.startedAt}>
            {formatDateTime(rebuild.finishedAt ?? rebuild.startedAt)}
          </time>{' '}
          from {rebuild.done} events.
        </p>
      );
    case 'failed':
      return <p className="hint">Last rebuild failed: {rebuild.error}. The live version is unchanged.</p>;
  }
}

/**
 * A projector's rebuild: its new version is built beside the live one from every event and switched in
 * at once, so the claim desk keeps its lists meanwhile. The admin role (`admin-stores:update`) starts one.
 */
export function ProjectionRebuildCell({
  name,
  rebuild,
  mayAct,
}: {
  name: string;
  rebuild: ProjectionRebuild | null;
  mayAct: boolean;
}) {
  const client = useQueryClient();
  const start = useMutation({
    mutationFn: () => api.rebuildProjection(name),
    onSettled: () => client.invalidateQueries({ queryKey: operationsQueries.state().queryKey }),
  });
  const running = rebuild?.status === 'running';
  return (
    <td>
      <RebuildState name={name} rebuild={rebuild} />
      {start.isError ? (
        <p className="hint" role="alert">
          {errorText(start.error)}
        </p>
      ) : null}
      {mayAct ? (
        <button
          type="button"
          className="button button-secondary"
          disabled={running || start.isPending}
          aria-label={`Rebuild ${name}`}
          onClick={() => start.mutate()}
        >
          Rebuild
        </button>
      ) : null}
    </td>
  );
}
