import type * as Server from 'react-dom/server';
import { productionBuild } from './productionBuild.js';

/** React's server renderer for mail (static markup, no hydration). */
export const { renderToStaticMarkup } = productionBuild<typeof Server>(
  'react-dom',
  'cjs/react-dom-server-legacy.node.production.js',
);
