import { useNavigate, useSearch } from '@tanstack/react-router';
import { z } from 'zod';
import { Alert, Page } from '@claims/ui/components';
import { can, holdsInternally, storesWith, useMe } from '../shared/session.js';
import { StorePicker } from '../shared/components/StorePicker.js';
import { MacroSection } from './desk-tools/MacroSection.js';

export const MacrosSearch = z.object({ store: z.uuid().optional().catch(undefined) });

/** `/admin/macros`: a store's macros (`macro:*`) and, for Order Protection staff, the global ones (`global-macro:*`). */
export function MacrosPage() {
  const me = useMe();
  const navigate = useNavigate();
  const search = useSearch({ from: '/app/macros' });
  const stores = storesWith(me, 'macro:read');
  const store = stores.find((s) => s.id === search.store) ?? stores[0];
  const global = holdsInternally(me, 'global-macro:read');
  if (!store && !global)
    return (
      <Page title="Macros">
        <Alert tone="info">You have no macros you may see.</Alert>
      </Page>
    );
  return (
    <Page title="Macros">
      <p className="hint">
        Macros are canned replies and resolutions. Placeholders in double braces are filled in from the claim when an
        agent uses the macro.
      </p>
      {store ? (
        <>
          <StorePicker
            stores={stores}
            value={store.id}
            onChange={(next) => void navigate({ to: '/macros', search: { store: next } })}
          />
          <MacroSection
            key={store.id}
            owner={{ scope: 'store', storeId: store.id }}
            title={`Macros of ${store.name}`}
            storeName={store.name}
            agentName={me.user.name}
            canCreate={can(me, 'macro:create', store.id)}
            canUpdate={can(me, 'macro:update', store.id)}
            canDelete={can(me, 'macro:delete', store.id)}
          />
        </>
      ) : null}
      {global ? (
        <MacroSection
          owner={{ scope: 'global' }}
          title="Global macros"
          storeName={store?.name ?? 'Sample store'}
          agentName={me.user.name}
          canCreate={holdsInternally(me, 'global-macro:create')}
          canUpdate={holdsInternally(me, 'global-macro:update')}
          canDelete={holdsInternally(me, 'global-macro:delete')}
        />
      ) : null}
    </Page>
  );
}
