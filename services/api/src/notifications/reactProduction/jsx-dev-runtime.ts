import { jsx } from './jsx-runtime.js';

/** Vitest compiles JSX for development (`jsxDEV`): the same production element, the debugging arguments dropped. */
export const jsxDEV = (...[type, props, key]: Parameters<typeof jsx>) => jsx(type, props, key);
export { Fragment } from './jsx-runtime.js';
export type { JSX } from 'react/jsx-runtime';
