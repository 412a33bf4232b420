import { Alert } from '@claims/ui/components';

/** Why a form was not sent, one problem a line, announced at once; nothing while there is none. */
export function ProblemList({ problems }: { problems: readonly string[] }) {
  return problems.length > 0 ? (
    <Alert>
      <ul className="plain">
        {problems.map((p) => (
          <li key={p}>{p}</li>
        ))}
      </ul>
    </Alert>
  ) : null;
}
