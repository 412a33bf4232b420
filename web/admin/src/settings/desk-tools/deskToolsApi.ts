import { z } from 'zod';
import {
  MacroList,
  MacroView,
  SopList,
  SopView,
  type MacroInput,
  type SopInput,
  type SopState,
} from '@claims/contracts';
import { request } from '@claims/ui/http';

const storePath = (storeId: string, rest: string) => `admin/stores/${encodeURIComponent(storeId)}${rest}`;

/** Where a macro lives: one store's macros, or the global (Order Protection) ones. */
export type MacroOwner = { scope: 'store'; storeId: string } | { scope: 'global' };

const macrosPath = (owner: MacroOwner, macroId?: string) => {
  const base = owner.scope === 'global' ? 'admin/global-macros' : storePath(owner.storeId, '/macros');
  return macroId ? `${base}/${encodeURIComponent(macroId)}` : base;
};
const sopsPath = (storeId: string, sopId?: string, rest = '') =>
  storePath(storeId, `/sops${sopId ? `/${encodeURIComponent(sopId)}` : ''}${rest}`);

/** The macro and SOP management pages' calls (the claim page reads macros through `macroQueries` and renders one through `api`). */
export const deskToolsApi = {
  macros: (owner: MacroOwner) => request('GET', macrosPath(owner), { schema: MacroList }),
  createMacro: (owner: MacroOwner, body: MacroInput) => request('POST', macrosPath(owner), { body, schema: MacroView }),
  updateMacro: (owner: MacroOwner, macroId: string, body: MacroInput, expectedVersion: number) =>
    request('PUT', macrosPath(owner, macroId), { body: { ...body, expectedVersion }, schema: MacroView }),
  deleteMacro: (owner: MacroOwner, macroId: string, expectedVersion: number) =>
    request('DELETE', macrosPath(owner, macroId), { query: { expectedVersion }, schema: z.null() }),

  sops: (storeId: string) => request('GET', sopsPath(storeId), { schema: SopList }),
  createSop: (storeId: string, body: SopInput) => request('POST', sopsPath(storeId), { body, schema: SopView }),
  updateSop: (storeId: string, sopId: string, body: SopInput, expectedVersion: number) =>
    request('PUT', sopsPath(storeId, sopId), { body: { ...body, expectedVersion }, schema: SopView }),
  setSopState: (storeId: string, sopId: string, state: SopState, expectedVersion: number) =>
    request('POST', sopsPath(storeId, sopId, '/state'), { body: { state, expectedVersion }, schema: SopView }),
  deleteSop: (storeId: string, sopId: string, expectedVersion: number) =>
    request('DELETE', sopsPath(storeId, sopId), { query: { expectedVersion }, schema: z.null() }),
};
