/** What a claim token in a portal link looks like: URL-safe, so it goes into a path or an HTML attribute as it is. */
export const CLAIM_TOKEN_PATTERN = /^[A-Za-z0-9_-]{16,200}$/;
