import { Alert } from '@claims/ui/components';

/**
 * Why a form was not sent, one problem a line (after a `lead` line where the form has one), announced at once;
 * nothing while there is none. A `bulleted` list keeps its bullets.
 */
export function ProblemList({
  problems,
  lead,
  bulleted = false,
}: {
  problems: readonly string[];
  lead?: string;
  bulleted?: boolean;
}) {
  return problems.length > 0 ? (
    <Alert>
      {lead ? <p>{lead}</p> : null}
      <ul className={bulleted ? undefined : 'plain'}>
        {problems.map((p) => (
          <li key={p}>{p}</li>
        ))}
      </ul>
    </Alert>
  ) : null;
}
