import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);

/**
 * A module of a package's production build, whatever NODE_ENV says: the mail is rendered with React's production
 * build even where NODE_ENV is not `production` (`npm start`, the benches), since the development build spends
 * four times as long on each mail checking and tracing elements nobody looks at. The packages' exports hide these
 * files, so they are found from the package's folder; a React upgrade that renames them fails every mail test.
 */
export function productionBuild<T>(packageName: string, file: string): T {
  return require(path.join(path.dirname(require.resolve(`${packageName}/package.json`)), file)) as T;
}
