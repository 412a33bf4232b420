import type * as Runtime from 'react/jsx-runtime';
import { productionBuild } from './productionBuild.js';

/** The JSX runtime of the mail layout (`@jsxImportSource ./reactProduction`). */
export const { jsx, jsxs, Fragment } = productionBuild<typeof Runtime>('react', 'cjs/react-jsx-runtime.production.js');
export type { JSX } from 'react/jsx-runtime';
