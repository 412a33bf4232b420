/** What other features use of sign-in: users, password hashes and the throttle on password-checking routes. */
export { awaitsFirstPassword, findOrCreateInvitee, setPassword, userNames } from './users.js';
export { hashPassword } from './passwords.js';
export { clientOf, countInvitationAttempt, forgetInvitationAttempt, tooManyAttempts } from './loginThrottle.js';
