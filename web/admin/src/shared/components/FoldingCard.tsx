import { useId, useState, type ReactNode } from 'react';
import './foldingCard.css';

/** Where a card remembers whether it was left open: per browser, per card, across claims and visits. */
const STORAGE_PREFIX = 'folding-card:';

function readRemembered(key: string, fallback: boolean): boolean {
  try {
    const stored = window.localStorage.getItem(`${STORAGE_PREFIX}${key}`);
    return stored === null ? fallback : stored === 'open';
  } catch {
    // Storage can be refused (a private window's quota, a policy): the card then opens as it would the first time.
    return fallback;
  }
}

function remember(key: string, open: boolean): void {
  try {
    window.localStorage.setItem(`${STORAGE_PREFIX}${key}`, open ? 'open' : 'closed');
  } catch {
    // Not remembered this time; the card still folds.
  }
}

/**
 * A card whose heading folds it (a native disclosure: the keyboard and screen readers know it without a library). It
 * remembers being left open or closed under `storageKey`, so an agent who folds away what they never read finds it
 * folded on the next claim.
 */
export function FoldingCard({
  title,
  storageKey,
  defaultOpen,
  titleId,
  focusableTitle = false,
  className = '',
  children,
}: {
  title: ReactNode;
  storageKey: string;
  defaultOpen: boolean;
  titleId?: string;
  /** The title is one its card moves the focus to (tabIndex -1). */
  focusableTitle?: boolean;
  className?: string;
  children: ReactNode;
}) {
  const ownId = useId();
  const id = titleId ?? ownId;
  const [open, setOpen] = useState(() => readRemembered(storageKey, defaultOpen));
  return (
    <section className={`card folding-card ${className}`.trim()} aria-labelledby={id}>
      <details
        open={open}
        onToggle={(event) => {
          const next = event.currentTarget.open;
          if (next === open) return;
          setOpen(next);
          remember(storageKey, next);
        }}
      >
        <summary>
          <h2 id={id} tabIndex={focusableTitle ? -1 : undefined}>
            {title}
          </h2>
        </summary>
        <div className="stack folding-card-body">{children}</div>
      </details>
    </section>
  );
}
