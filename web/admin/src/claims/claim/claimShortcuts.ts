import { useEffect } from 'react';

const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

export interface ClaimShortcutActions {
  next(): void;
  previous(): void;
  reply(): void;
  decide(): void;
  help(): void;
}

/** The claim page's keys (listed in HelpDialog's CLAIM_SHORTCUTS): not while typing, with a modifier, or with a dialog open. */
export function useClaimShortcuts(actions: ClaimShortcutActions): void {
  useEffect(() => {
    const keys: Record<string, () => void> = {
      j: actions.next,
      k: actions.previous,
      r: actions.reply,
      d: actions.decide,
      '?': actions.help,
    };
    function onKey(event: KeyboardEvent) {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
      if (document.querySelector('[role="dialog"], [role="menu"]')) return;
      const action = keys[event.key];
      if (!action) return;
      event.preventDefault();
      action();
    }
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [actions]);
}

/**
 * The first field of the claim page's section whose heading matches: the sections belong to their own
 * components, so the keys find them by what they are called on screen.
 */
export function focusSection(heading: RegExp): boolean {
  const section = Array.from(document.querySelectorAll<HTMLElement>('main section')).find((s) =>
    heading.test(s.querySelector('h2')?.textContent ?? ''),
  );
  if (!section) return false;
  // A section the agent folded away opens again: the key asked for what is inside it.
  const folded = section.querySelector('details');
  if (folded) folded.open = true;
  const field = section.querySelector<HTMLElement>('textarea, select, input, button') ?? section;
  section.scrollIntoView({ block: 'start' });
  field.focus({ preventScroll: true });
  return true;
}
