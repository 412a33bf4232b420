import { Link } from '@tanstack/react-router';
import { SETTINGS_GROUP_ACCESS, SETTINGS_GROUPS, type Permission } from '@claims/contracts';
import { storesWith, useMe } from '../../shared/session.js';
import './firstRunGuide.css';

/**
 * The desk before its first claim: instead of an empty table, what to set up meanwhile, each step a link to its page
 * and shown only to someone who may do it (an agent is simply told the claims will appear here).
 */
export function FirstRunGuide() {
  const me = useMe();
  const holds = (permission: Permission) => storesWith(me, permission).length > 0;
  const mayConfigure = SETTINGS_GROUPS.some((group) => {
    const update = SETTINGS_GROUP_ACCESS[group].update;
    return update !== null && holds(update);
  });
  const steps = [
    mayConfigure ? (
      <li key="settings">
        <Link to="/settings" search={{}}>
          Check your store's settings
        </Link>
        <span className="hint">What shoppers may ask for, how you are reached, your policies.</span>
      </li>
    ) : null,
    holds('branding:update') ? (
      <li key="branding">
        <Link to="/branding" search={{}}>
          Brand your claims portal
        </Link>
        <span className="hint">Your logo and colours on the pages your shoppers file claims from.</span>
      </li>
    ) : null,
    holds('team-member:invite') ? (
      <li key="team">
        <Link to="/team" search={{}}>
          Invite your team
        </Link>
        <span className="hint">The people who will answer and decide claims with you.</span>
      </li>
    ) : null,
    holds('macro:create') ? (
      <li key="macros">
        <Link to="/macros" search={{}}>
          Write your first macros
        </Link>
        <span className="hint">Replies and decisions your team reuses in one click.</span>
      </li>
    ) : null,
    holds('automation:update') ? (
      <li key="rules">
        <Link to="/rules" search={{}}>
          Let rules decide routine claims
        </Link>
        <span className="hint">Approve, deny or hold claims that match what you set.</span>
      </li>
    ) : null,
  ].filter((step) => step !== null);
  return (
    <section className="card first-run" aria-labelledby="first-run-title">
      <h2 id="first-run-title">No claims yet</h2>
      <p>The claims your shoppers file appear here.</p>
      {steps.length > 0 ? (
        <>
          <p>While you wait for the first one, set up your store:</p>
          <ol className="first-run-steps">{steps}</ol>
        </>
      ) : null}
    </section>
  );
}
