import { useId } from 'react';

/**
 * A period's first and last day as two date fields. A problem with the period, said at `problemId`, describes both;
 * `invalid` marks them while it stands.
 */
export function PeriodFields({
  from,
  to,
  onFrom,
  onTo,
  fromLabel = 'From',
  toLabel = 'To',
  problemId,
  invalid = false,
}: {
  from: string;
  to: string;
  onFrom: (day: string) => void;
  onTo: (day: string) => void;
  fromLabel?: string;
  toLabel?: string;
  problemId?: string | undefined;
  invalid?: boolean;
}) {
  const id = useId();
  const problem = { 'aria-invalid': invalid ? true : undefined, 'aria-describedby': problemId } as const;
  return (
    <>
      <div className="field">
        <label htmlFor={`${id}-from`}>{fromLabel}</label>
        <input id={`${id}-from`} type="date" value={from} onChange={(e) => onFrom(e.target.value)} {...problem} />
      </div>
      <div className="field">
        <label htmlFor={`${id}-to`}>{toLabel}</label>
        <input id={`${id}-to`} type="date" value={to} onChange={(e) => onTo(e.target.value)} {...problem} />
      </div>
    </>
  );
}
