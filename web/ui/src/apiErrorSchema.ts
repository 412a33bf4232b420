import './zodSetup.js';

/** The API's error body (`{error, message}`), in a module of its own: loaded by the HTTP client on the first failed call. */
export { ApiError } from '@claims/contracts';
